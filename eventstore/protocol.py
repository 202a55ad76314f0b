"""The storage contract every backend honours; `tests/eventstore/test_contract.py` runs it on each one."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

GENESIS_HASH = "0" * 64
SCHEDULED_TTL_S = 5  # a lost projection job delays folding by at most this long before appends reschedule
IDEMPOTENCY_RETAIN_S = 24 * 3600.0  # how long an idempotency key answers with its original response


@dataclass(frozen=True, slots=True, kw_only=True)
class NewEntry:
    """A command about to be appended; the store assigns version, prev_hash and hash."""

    type: str
    data: dict[str, Any]
    schema_version: int
    actor: str
    idempotency_key: str | None
    recorded_at: str  # server UTC, ISO 8601
    dice: dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredEntry:
    version: int
    type: str
    data: dict[str, Any]
    schema_version: int
    actor: str
    idempotency_key: str | None
    recorded_at: str
    dice: dict[str, Any]
    prev_hash: str
    hash: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Head:
    version: int
    hash: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Appended:
    """Where an append landed; `replayed` is true when an idempotency record answered instead, with
    `response` the one recorded for the key (None when its request never recorded one).

    `enqueue` is true when the append was asked to mark the battle pending and no projection job was
    scheduled yet: the caller enqueues one (as with `mark_pending`)."""

    version: int
    hash: str
    replayed: bool = False
    enqueue: bool = False
    response: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Projection:
    version: int
    state: str  # canonical JSON of the encoded battle


class UnknownBattle(LookupError):
    pass


class BattleExists(Exception):
    pass


class BrokenHistory(ValueError):
    """An imported history does not start at version 1 or does not chain (DESIGN §3.2): nothing was kept."""

    def __init__(self, version: int, reason: str) -> None:
        super().__init__(f"version {version}: {reason}")
        self.version, self.reason = version, reason


class VersionConflict(Exception):
    """The expected version is not the head: nothing was appended."""

    def __init__(self, current: int) -> None:
        super().__init__(f"current version is {current}")
        self.current = current


class AppendContention(VersionConflict):
    """No expected version was given, yet the head kept moving for every bounded retry: nothing appended."""


class IdempotencyMismatch(Exception):
    """The idempotency key was used before with a different body."""

    def __init__(self, version: int) -> None:
        super().__init__(f"key already used for version {version}")
        self.version = version


class IdempotencyInFlight(Exception):
    """The idempotency key's first request appended `version` and has not recorded its response yet."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the request that appended version {version} is still in flight")
        self.version = version


class TokenRefused(Exception):
    """The token an append was made with is no longer stored, or revoked: nothing was appended."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenRecord:
    """An access token as stored under `digest`, the SHA-256 of the token: the token itself is never kept.

    `role` is `gm`, `side` or `observer`; `scope` names the side of a side token."""

    digest: str
    id: str
    role: str
    scope: str | None = None
    expires_at: str | None = None  # UTC ISO 8601; None: never
    revoked: bool = False
    created_at: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TicketRecord:
    """A stream ticket as stored under `digest`, the SHA-256 of the ticket: the role of the token it was
    minted with, and that token's digest, so a ticket of a revoked token opens nothing."""

    digest: str
    token_digest: str
    token_id: str
    role: str
    scope: str | None = None


def require_consecutive(outcomes: Sequence[tuple[int, str]]) -> None:
    """Outcomes handed to `save_projection` must be one run of versions; anything else is a caller bug."""
    versions = [version for version, _ in outcomes]
    if any(later != earlier + 1 for earlier, later in itertools.pairwise(versions)):
        raise ValueError(f"outcomes must have consecutive versions, got {versions}")


class EventStore(Protocol):
    def create_battle(
        self, battle_id: str, created: NewEntry, server_seed: str, *, token: TokenRecord | None = None
    ) -> Appended:
        """Write version 1 (`battle_created`), the secret seed and the first token in one step;
        BattleExists if the id is taken."""

    def import_battle(
        self,
        battle_id: str,
        entries: Iterable[StoredEntry],
        server_seed: str,
        *,
        token: TokenRecord | None = None,
        batch: int = 1000,
    ) -> Head:
        """Recreate a battle from a whole history, streamed in batches: the entries keep their versions and
        hashes, which must chain from the genesis link (BrokenHistory otherwise); the secret seed and the
        first token land only once the last entry has, and a failed import leaves nothing behind.
        BattleExists if the id is taken."""

    def append(
        self,
        battle_id: str,
        entry: NewEntry,
        *,
        expected_version: int | None = None,
        fingerprint: str | None = None,
        mark_pending: bool = False,
        retain_s: float = IDEMPOTENCY_RETAIN_S,
        lease_s: float = 0.0,
        token_digest: str | None = None,
    ) -> Appended:
        """Append atomically: version check, idempotency record (key + fingerprint), hash chain, write.

        A keyed entry's record answers the same key for `retain_s` seconds: the same fingerprint replays
        (with the recorded response), another one raises IdempotencyMismatch, and until the response is
        recorded, for at most `lease_s` (0: no lease), the same fingerprint raises IdempotencyInFlight.
        `mark_pending=True` also does `mark_pending(battle_id)` after a new entry lands, in the same
        round trip where the backend can: the ingest hot path then costs one call. With `token_digest`, the
        token stored under it must still be there and not revoked, judged before anything else but the
        battle's existence (TokenRefused otherwise), so a caller may trust a remembered token record."""

    def record_response(self, battle_id: str, key: str, version: int, response: str) -> bool:
        """Keep the response of the request that appended `version` with `key`, ending its lease;
        False when the key's record is gone or names another version."""

    def head(self, battle_id: str) -> Head:
        """The log head; UnknownBattle if the battle does not exist."""

    def read(self, battle_id: str, *, after: int = 0, limit: int = 100) -> list[StoredEntry]:
        """Entries with version > after, at most `limit`, in version order."""

    def entry(self, battle_id: str, version: int) -> StoredEntry | None: ...

    def iter_entries(
        self, battle_id: str, *, after: int = 0, upto: int | None = None, batch: int = 1000
    ) -> Iterator[StoredEntry]:
        """Stream entries after `after` (to `upto` inclusive) in batches, never loading the whole log."""

    def secret(self, battle_id: str) -> str:
        """The hex server seed."""

    def battle_ids(self) -> Iterator[str]: ...

    # --- access tokens (hashed) ------------------------------------------------------------------------
    def add_token(self, battle_id: str, token: TokenRecord) -> None:
        """Keep a token record under its digest; UnknownBattle if the battle does not exist."""

    def token(self, battle_id: str, digest: str) -> TokenRecord | None: ...

    def tokens(self, battle_id: str) -> list[TokenRecord]:
        """Every token record of the battle, revoked and expired ones included, oldest first."""

    def revoke_token(self, battle_id: str, token_id: str) -> TokenRecord | None:
        """Mark the token with this id revoked; the revoked record, or None when there is no such id."""

    # --- stream tickets (hashed, single use, short-lived) ---------------------------------------------
    def add_ticket(self, battle_id: str, ticket: TicketRecord, ttl_s: float) -> None:
        """Keep a ticket for `ttl_s` seconds under its digest, in the battle's keys."""

    def take_ticket(self, battle_id: str, digest: str) -> TicketRecord | None:
        """The ticket stored under `digest`, removed in the same atomic step (single use); None when it is
        unknown, taken already, expired, or another battle's."""

    # --- derived keys: outcomes, state, snapshots -------------------------------------------------
    def projection(self, battle_id: str) -> Projection | None: ...

    def projected_version(self, battle_id: str) -> int:
        """The version the stored projection reflects (0 before any fold), without reading the state."""

    def save_projection(
        self,
        battle_id: str,
        *,
        state: Projection,
        outcomes: Sequence[tuple[int, str]],
        snapshots: Sequence[Projection] = (),
    ) -> bool:
        """Atomically write outcomes (version, JSON), state and snapshots, only if state.version is
        newer than the stored one and the outcomes continue the stored ones; False when guarded out."""

    def outcome(self, battle_id: str, version: int) -> str | None: ...

    def outcomes(self, battle_id: str, *, after: int = 0, limit: int = 100) -> list[tuple[int, str]]: ...

    def wait_outcome(self, battle_id: str, version: int, timeout_s: float) -> str | None:
        """Block up to timeout_s until the outcome of `version` exists (XREAD BLOCK on the outcomes)."""

    def follow_outcomes(
        self, cursors: Mapping[str, int], timeout_s: float, *, count: int = 100
    ) -> dict[str, list[tuple[int, str]]]:
        """Block up to timeout_s until any battle of `cursors` (battle → last version seen) has outcomes
        after its cursor; those outcomes, at most `count` per battle, by battle ({} when none came). One
        call watches every battle: what a process's stream reader waits on for all its subscribers."""

    def snapshot_at_or_before(self, battle_id: str, version: int) -> Projection | None: ...

    def delete_derived(self, battle_id: str) -> None:
        """Drop outcomes, state and snapshots; the log and secret stay."""

    # --- coalesced projection scheduling -------------------------------------------------------------
    def mark_pending(self, battle_id: str) -> bool:
        """Note that a battle needs folding; True when the caller should enqueue a projection job."""

    def take_pending(self, count: int) -> list[str]:
        """Pop up to `count` battles that need folding (the job clears the scheduled flag first)."""

    def clear_scheduled(self) -> None: ...

    def try_lock(self, battle_id: str, owner: str, ttl_ms: int) -> bool:
        """One folder per battle at a time; the lock expires so a crashed worker never blocks it.
        The owner that holds it renews it (a long fold does, between batches)."""

    def unlock(self, battle_id: str, owner: str) -> None: ...
