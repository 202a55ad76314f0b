"""A battle's webhooks as the GM manages them: registration, views, upkeep (secrets, recovery, resends)."""
