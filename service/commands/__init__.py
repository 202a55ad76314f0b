"""What the API changes or judges: a command submitted, a battle created, a preview, a replay job started."""
