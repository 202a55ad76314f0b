"""Commands: submitting one (shape, sender, idempotency, append, answer), creating a battle, previews."""
