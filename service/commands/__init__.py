"""What the API changes or judges: a command submitted, a battle created or imported, a preview."""
