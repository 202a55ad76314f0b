"""Who is acting: the place where bearer tokens will be checked (DESIGN §4.9; a later issue)."""

from __future__ import annotations

import secrets

ANONYMOUS = "anonymous"


def current_actor() -> str:
    """The `actor` recorded in log entries; every request is anonymous until tokens are enforced."""
    return ANONYMOUS


def new_token() -> str:
    """A bearer token: 256 random bits, URL-safe; shown once, stored only as a hash (with auth)."""
    return secrets.token_urlsafe(32)
