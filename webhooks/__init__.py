"""Outcome webhooks, shared by the API (registration) and the webhook worker (delivery): settings, the address
guard, the signed CloudEvent and the HTTP post; storage is the event store's, scheduling the workers'."""
