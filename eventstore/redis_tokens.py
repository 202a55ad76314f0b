"""An access token's stored form in Redis: `siege:{B}:tokens` maps SHA-256(token) to this JSON record."""

from __future__ import annotations

import json
from typing import Any

from eventstore.canonical import canonical_json
from eventstore.records import TokenRecord
from eventstore.stream_fields import text


def token_json(token: TokenRecord) -> str:
    """The stored value: every field but the digest, which is the hash field it is stored under."""
    return canonical_json(
        {
            "id": token.id,
            "role": token.role,
            "scope": token.scope,
            "expires_at": token.expires_at,
            "revoked": token.revoked,
            "created_at": token.created_at,
        }
    )


def token_from(digest: Any, raw: Any) -> TokenRecord:
    record = json.loads(text(raw))
    return TokenRecord(
        digest=text(digest),
        id=record["id"],
        role=record["role"],
        scope=record.get("scope"),
        expires_at=record.get("expires_at"),
        revoked=bool(record.get("revoked")),
        created_at=record.get("created_at") or "",
    )
