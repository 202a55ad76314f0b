"""Access tokens in Redis: `siege:{B}:tokens` maps SHA-256(token) to a JSON record."""

from __future__ import annotations

import json
from typing import Any

from eventstore import keys, lua
from eventstore.canonical import canonical_json
from eventstore.config import RedisClient
from eventstore.errors import TooManyTokens, UnknownBattle
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


class RedisTokens:
    def __init__(self, client: RedisClient) -> None:
        self._client = client
        self._add_token_script = lua.register(client, "add_token")
        self._revoke_script = lua.register(client, "revoke_token")

    def add_token(self, battle_id: str, token: TokenRecord, *, live_cap: int = 0, now: str = "") -> None:
        script_keys = [keys.log(battle_id), keys.tokens(battle_id)]
        kept = self._add_token_script(keys=script_keys, args=[token.digest, token_json(token), live_cap, now])
        if isinstance(kept, list):
            raise TooManyTokens(int(kept[0]))
        if not kept:
            raise UnknownBattle(battle_id)

    def token(self, battle_id: str, digest: str) -> TokenRecord | None:
        raw = self._client.hget(keys.tokens(battle_id), digest)
        return None if raw is None else token_from(digest, raw)

    def tokens(self, battle_id: str) -> list[TokenRecord]:
        found = [token_from(d, raw) for d, raw in self._client.hgetall(keys.tokens(battle_id)).items()]
        return sorted(found, key=lambda token: (token.created_at, token.id))

    def revoke_token(self, battle_id: str, token_id: str) -> TokenRecord | None:
        reply = self._revoke_script(keys=[keys.tokens(battle_id)], args=[token_id])
        return token_from(reply[0], reply[1]) if reply else None
