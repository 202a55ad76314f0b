"""Access in process memory: per battle, token digest → record (as `siege:{B}:tokens` holds them), tickets
taken once before their deadline, rate budgets and command keys in the battle's keys, and the
Idempotency-Key records of webhook operations, which expire as Redis lets them."""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import TYPE_CHECKING

from eventstore.errors import TooManyTokens
from eventstore.memory_battle import MemoryKeys
from eventstore.records import Budget, Head, RequestRecord, Spent, TicketRecord, TokenRecord

REQUESTS_KEPT = 10_000  # Idempotency-Keys held before the expired ones are swept


class MemoryAccess(MemoryKeys):
    if TYPE_CHECKING:  # what it asks of the store's log: UnknownBattle when there is no battle

        def head(self, battle_id: str) -> Head: ...

    def __init__(self) -> None:
        self._tokens_lock = threading.Lock()
        self._tokens: dict[str, dict[str, TokenRecord]] = {}
        self._tickets_lock = threading.Lock()
        self._tickets: dict[tuple[str, str], tuple[TicketRecord, float]] = {}
        self._requests_lock = threading.Lock()
        # (battle, Idempotency-Key) -> (what it holds, until when on the monotonic clock)
        self._requests: dict[tuple[str, str], tuple[RequestRecord, float]] = {}

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

    def add_ticket(self, battle_id: str, ticket: TicketRecord, ttl_s: float) -> None:
        now = time.monotonic()
        with self._tickets_lock:
            self._tickets = {k: held for k, held in self._tickets.items() if held[1] > now}  # prune
            self._tickets[(battle_id, ticket.digest)] = (ticket, now + ttl_s)

    def take_ticket(self, battle_id: str, digest: str) -> TicketRecord | None:
        with self._tickets_lock:
            held = self._tickets.pop((battle_id, digest), None)
        return held[0] if held is not None and held[1] > time.monotonic() else None

    def spend(self, battle_id: str, budget: Budget) -> Spent:
        with self._changed:
            return self._battle(battle_id).spend(budget)

    def record_response(self, battle_id: str, key: str, version: int, response: str) -> bool:
        with self._changed:
            battle = self._battles.get(battle_id)
            return battle is not None and battle.record_response(key, version, response)

    def hold_request(self, battle_id: str, key: str, fingerprint: str, lease_ms: int) -> RequestRecord | None:
        now = time.monotonic()
        with self._requests_lock:
            if len(self._requests) > REQUESTS_KEPT:  # expired keys go, as Redis lets them
                self._requests = {k: v for k, v in self._requests.items() if v[1] > now}
            held = self._requests.get((battle_id, key))
            if held is not None and held[1] > now:
                return held[0]
            self._requests[(battle_id, key)] = (RequestRecord(fingerprint=fingerprint), now + lease_ms / 1000)
            return None

    def answer_request(self, battle_id: str, key: str, fingerprint: str, answer: str, ttl_ms: int) -> None:
        record = RequestRecord(fingerprint=fingerprint, answer=answer)
        with self._requests_lock:
            self._requests[(battle_id, key)] = (record, time.monotonic() + ttl_ms / 1000)

    def release_request(self, battle_id: str, key: str, fingerprint: str) -> None:
        with self._requests_lock:
            held = self._requests.get((battle_id, key))
            if held is not None and held[0] == RequestRecord(fingerprint=fingerprint):
                del self._requests[(battle_id, key)]
