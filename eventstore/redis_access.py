"""Access in Redis, every key under the battle's hash tag: `siege:{B}:tokens` (SHA-256 of a token → its
record), a ticket per key with its own expiry (GETDEL takes it, so two streams can never open with one),
the rate counters (eventstore/lua/rate.lua), and the Idempotency-Key records of commands and of webhook
operations."""

from __future__ import annotations

import hashlib
import json
import math

from eventstore import keys, lua
from eventstore.canonical import canonical_json
from eventstore.config import RedisClient
from eventstore.errors import TooManyTokens, UnknownBattle
from eventstore.records import Budget, RequestRecord, Spent, TicketRecord, TokenRecord
from eventstore.redis_rate import counters, spent_of, windows
from eventstore.redis_tokens import token_from, token_json
from eventstore.stream_fields import text
from eventstore.webhook_records import request_from


class RedisAccess:
    def __init__(self, client: RedisClient) -> None:
        self._client = client
        self._add_token_script = lua.register(client, "add_token")
        self._revoke_script = lua.register(client, "revoke_token")
        self._spend_script = lua.register(client, "spend")
        self._response_script = lua.register(client, "idem_response")
        self._release_request_script = lua.register(client, "unlock")

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

    def add_ticket(self, battle_id: str, ticket: TicketRecord, ttl_s: float) -> None:
        record = {
            "token_digest": ticket.token_digest,
            "token_id": ticket.token_id,
            "role": ticket.role,
            "scope": ticket.scope,
        }
        ttl_ms = max(1, math.ceil(ttl_s * 1000))
        self._client.set(keys.ticket(battle_id, ticket.digest), canonical_json(record), px=ttl_ms)

    def take_ticket(self, battle_id: str, digest: str) -> TicketRecord | None:
        raw = self._client.getdel(keys.ticket(battle_id, digest))
        if raw is None:
            return None
        record = json.loads(text(raw))
        return TicketRecord(
            digest=digest,
            token_digest=record["token_digest"],
            token_id=record["token_id"],
            role=record["role"],
            scope=record.get("scope"),
        )

    def spend(self, battle_id: str, budget: Budget) -> Spent:
        reply = self._spend_script(keys=counters(battle_id, budget), args=windows(budget))
        spent = spent_of(budget, reply)
        assert spent is not None, "a budget has at least one window"
        return spent

    def record_response(self, battle_id: str, key: str, version: int, response: str) -> bool:
        return bool(self._response_script(keys=[keys.idem(battle_id)], args=[key, version, response]))

    def hold_request(self, battle_id: str, key: str, fingerprint: str, lease_ms: int) -> RequestRecord | None:
        name = _request_key(battle_id, key)
        for _ in range(3):  # what was held may expire between the SET and the GET: then try to take it again
            if self._client.set(name, fingerprint, nx=True, px=max(lease_ms, 1)):
                return None
            held = self._client.get(name)
            if held is not None:
                return request_from(held)
        raise RuntimeError(f"the Idempotency-Key record of battle {battle_id} kept changing")

    def answer_request(self, battle_id: str, key: str, fingerprint: str, answer: str, ttl_ms: int) -> None:
        self._client.set(_request_key(battle_id, key), f"{fingerprint} {answer}", px=max(int(ttl_ms), 1))

    def release_request(self, battle_id: str, key: str, fingerprint: str) -> None:
        # only while it still holds our in-flight fingerprint: past its lease it may be another request's
        self._release_request_script(keys=[_request_key(battle_id, key)], args=[fingerprint])


def _request_key(battle_id: str, key: str) -> str:
    return keys.webhook_request(battle_id, hashlib.sha256(key.encode()).hexdigest())
