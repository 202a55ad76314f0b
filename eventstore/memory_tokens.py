"""Access tokens in process memory: per battle, digest → record, as `siege:{B}:tokens` holds them."""

from __future__ import annotations

import dataclasses
import threading

from eventstore.errors import TooManyTokens
from eventstore.records import Head, TokenRecord


class MemoryTokens:
    def __init__(self) -> None:
        self._tokens_lock = threading.Lock()
        self._tokens: dict[str, dict[str, TokenRecord]] = {}

    def head(self, battle_id: str) -> Head:
        raise NotImplementedError  # the store's log answers; UnknownBattle when there is no battle

    def add_token(self, battle_id: str, token: TokenRecord, *, live_cap: int = 0, now: str = "") -> None:
        self.head(battle_id)
        with self._tokens_lock:
            held = self._tokens.setdefault(battle_id, {})
            live = sum(
                1 for t in held.values() if not t.revoked and (t.expires_at is None or t.expires_at > now)
            )
            if live_cap and live >= live_cap:
                raise TooManyTokens(live)
            held[token.digest] = token

    def token(self, battle_id: str, digest: str) -> TokenRecord | None:
        with self._tokens_lock:
            return self._tokens.get(battle_id, {}).get(digest)

    def tokens(self, battle_id: str) -> list[TokenRecord]:
        with self._tokens_lock:
            found = list(self._tokens.get(battle_id, {}).values())
        return sorted(found, key=lambda token: (token.created_at, token.id))

    def revoke_token(self, battle_id: str, token_id: str) -> TokenRecord | None:
        with self._tokens_lock:
            held = self._tokens.get(battle_id, {})
            found = next((t for t in held.values() if t.id == token_id), None)
            if found is None:
                return None
            held[found.digest] = dataclasses.replace(found, revoked=True)
            return held[found.digest]
