"""Access: a battle's tokens (hashed) and stream tickets, the rate budgets counted in its keys, and the
Idempotency-Key records of its commands and of its webhook operations."""

from __future__ import annotations

from typing import Protocol

from eventstore.records import Budget, RequestRecord, Spent, TicketRecord, TokenRecord


class Access(Protocol):
    def add_token(self, battle_id: str, token: TokenRecord, *, live_cap: int = 0, now: str = "") -> None:
        """Keep a token record under its digest; UnknownBattle if the battle does not exist; TooManyTokens
        when `live_cap` > 0 and the battle has that many live tokens (not revoked, `expires_at` after
        `now`, an ISO 8601 UTC time as the records write them) already."""

    def token(self, battle_id: str, digest: str) -> TokenRecord | None: ...

    def tokens(self, battle_id: str) -> list[TokenRecord]:
        """Every token record of the battle, revoked and expired ones included, oldest first."""

    def revoke_token(self, battle_id: str, token_id: str) -> TokenRecord | None:
        """Mark the token with this id revoked; the revoked record, or None when there is no such id."""

    def add_ticket(self, battle_id: str, ticket: TicketRecord, ttl_s: float) -> None:
        """Keep a ticket (single use, short-lived) for `ttl_s` seconds under its digest, in the battle's
        keys."""

    def take_ticket(self, battle_id: str, digest: str) -> TicketRecord | None:
        """The ticket stored under `digest`, removed in the same atomic step (single use); None when it is
        unknown, taken already, expired, or another battle's."""

    def spend(self, battle_id: str, budget: Budget) -> Spent:
        """Count one request against `budget` in the battle's keys, as `append` does; nothing else."""

    def record_response(self, battle_id: str, key: str, version: int, response: str) -> bool:
        """Keep what the request that appended `version` with `key` answered (`response`: a short string
        the caller can rebuild the answer from, at most 64 characters), ending its lease; False when the
        key's record is gone or names another version."""

    # the Idempotency-Keys of the battle's webhook operations: their own, apart from the commands'
    def hold_request(self, battle_id: str, key: str, fingerprint: str, lease_ms: int) -> RequestRecord | None:
        """Take the key for the request of `fingerprint` for `lease_ms`: None when taken now; else what it
        holds (another request's fingerprint, and its answer unless that one is still in flight)."""

    def answer_request(self, battle_id: str, key: str, fingerprint: str, answer: str, ttl_ms: int) -> None:
        """Keep the answer a repeat of the key replays, for `ttl_ms`."""

    def release_request(self, battle_id: str, key: str, fingerprint: str) -> None:
        """Give the key up unanswered (the request was refused or failed), if this request still holds it."""
