"""Access tokens: random, shown once, kept only as SHA-256, each for one battle and one role."""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from eventstore.clock import iso, now, parse_iso
from eventstore.records import TokenRecord

TOKEN_BYTES = 32  # 256 random bits
GM, SIDE, OBSERVER = "gm", "side", "observer"
SIDE_PREFIX = SIDE + ":"
TOKEN_ID_PREFIX, TOKEN_ID_BYTES = "tok_", 8  # a token's public id, as `actor` names it
_TOKEN_ID = re.compile(rf"{TOKEN_ID_PREFIX}[0-9a-f]{{{2 * TOKEN_ID_BYTES}}}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Minted:
    """A new token: `secret` goes to the client once, `record` to the store."""

    secret: str
    record: TokenRecord


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def mint(role: str, expires_in_s: int | None = None) -> Minted:
    """`role` as on the wire: `gm`, `observer` or `side:<name>`."""
    kind, _, scope = role.partition(":")
    secret = secrets.token_urlsafe(TOKEN_BYTES)
    created = now()
    expires = iso(created + timedelta(seconds=expires_in_s)) if expires_in_s is not None else None
    record = TokenRecord(
        digest=digest(secret),
        id=TOKEN_ID_PREFIX + secrets.token_hex(TOKEN_ID_BYTES),
        role=kind,
        scope=scope or None,
        expires_at=expires,
        created_at=iso(created),
    )
    return Minted(secret=secret, record=record)


def is_token_id(text: str) -> bool:
    """Whether `text` is a token id as `mint` draws them."""
    return _TOKEN_ID.fullmatch(text) is not None


def role_of(record: TokenRecord) -> str:
    """The wire name of a token's role: `gm`, `observer` or `side:<name>`."""
    return SIDE_PREFIX + (record.scope or "") if record.role == SIDE else record.role


def expired(record: TokenRecord, at: datetime | None = None) -> bool:
    return record.expires_at is not None and parse_iso(record.expires_at) <= (at or now())


def token_view(record: TokenRecord) -> dict[str, Any]:
    """What anyone may see of a token: never its secret nor its digest."""
    return {
        "id": record.id,
        "role": role_of(record),
        "expires_at": record.expires_at,
        "created_at": record.created_at,
        "revoked": record.revoked,
        "active": not record.revoked and not expired(record),
    }
