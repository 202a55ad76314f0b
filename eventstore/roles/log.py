"""The log: a battle's entries (created, imported, appended, read back) and the outcomes folded from them,
as every reader sees them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from eventstore.records import (
    Appended,
    AppendRequest,
    Head,
    HeadRegression,
    ImportRequest,
    NewEntry,
    StoredEntry,
    TokenRecord,
)


class Log(Protocol):
    def create_battle(
        self, battle_id: str, created: NewEntry, server_seed: str, *, token: TokenRecord | None = None
    ) -> Appended:
        """Write version 1 (`battle_created`), the secret seed and the first token in one step;
        BattleExists if the id is taken."""

    def import_battle(self, request: ImportRequest) -> Head:
        """Recreate a battle from a whole history, streamed in batches: the entries keep their versions and
        hashes, which must chain from the genesis link (BrokenHistory otherwise); the secret seed and the
        first token land only once the last entry has, and a failed import leaves nothing behind.
        BattleExists if the id is taken."""

    def append(self, request: AppendRequest) -> Appended:
        """Append atomically: version check, idempotency record (key + fingerprint), hash chain, write.

        A keyed entry's record answers the same key for `retain_s` seconds: the same fingerprint replays
        (with the recorded response), another one raises IdempotencyMismatch, and until the response is
        recorded, for at most `lease_s` (0: no lease), the same fingerprint raises IdempotencyInFlight.
        `mark_pending=True` also does `Schedule.mark_pending(battle_id)` after a new entry lands, in the
        same round trip where the backend can: a submitted command then costs one call. With
        `token_digest`, the token stored under it must still be there and not revoked, judged before
        anything else but the battle's existence (TokenRefused otherwise), so a caller may trust a
        remembered token record.
        With `budget`, the append is counted against it right after that (before the key is looked up, as a
        limiter in front would): past the budget it raises RateLimited; `spent` is on the answer or on
        the CountedRefusal raised.

        A key's record keeps only what its replay needs: the fingerprint, the version (the replayed 202 is
        that entry's version and hash) and, once recorded, the short answer of `Access.record_response`."""

    def head(self, battle_id: str) -> Head:
        """The log head; UnknownBattle if the battle does not exist."""

    def read(self, battle_id: str, *, after: int = 0, limit: int = 100) -> list[StoredEntry]:
        """Entries with version > after, at most `limit`, in version order."""

    def entry(self, battle_id: str, version: int) -> StoredEntry | None: ...

    def iter_entries(
        self,
        battle_id: str,
        *,
        after: int = 0,
        upto: int | None = None,
        batch: int = 1000,
        read_ahead: bool = False,
    ) -> Iterator[StoredEntry]:
        """Stream entries after `after` (to `upto` inclusive) in batches, never loading the whole log.
        `read_ahead`: the next batch is asked for before this one is handed out (a fold's reads; it holds a
        connection while the caller works, so not for a reader paced by a client)."""

    def secret(self, battle_id: str) -> str:
        """The hex server seed."""

    def battle_ids(self) -> Iterator[str]: ...

    def head_regressions(self, battle_id: str) -> list[HeadRegression]:
        """Each time an append found the head behind one it had acknowledged (entries lost to a failover
        or a crash), oldest first; the battle's audit reports them."""

    def outcome(self, battle_id: str, version: int) -> str | None: ...

    def outcomes(self, battle_id: str, *, after: int = 0, limit: int = 100) -> list[tuple[int, str]]: ...

    def projected_version(self, battle_id: str) -> int:
        """The version the stored projection reflects (0 before any fold), without reading the state: how
        far the outcomes reach."""
