"""The storage contract every backend honours; `tests/eventstore/test_contract.py` runs it on each one.
The records it takes and gives are in eventstore/records.py, what it raises in eventstore/errors.py."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Protocol

from eventstore.records import (
    Appended,
    AppendRequest,
    Budget,
    DeliveryAttempt,
    FoldSave,
    FoldStart,
    Head,
    HeadRegression,
    ImportRequest,
    NewEntry,
    Projection,
    RequestRecord,
    Spent,
    StoredEntry,
    TicketRecord,
    TokenRecord,
    WebhookProgress,
    WebhookRecord,
)

GENESIS_HASH = "0" * 64
SCHEDULED_TTL_S = 5  # a lost projection job delays folding by at most this long before appends reschedule
ATTEMPTS_KEPT = 100  # delivery attempts a webhook's log keeps, newest first


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
        `mark_pending=True` also does `mark_pending(battle_id)` after a new entry lands, in the same
        round trip where the backend can: the ingest hot path then costs one call. With `token_digest`, the
        token stored under it must still be there and not revoked, judged before anything else but the
        battle's existence (TokenRefused otherwise), so a caller may trust a remembered token record.
        With `budget`, the append is counted against it right after that (before the key is looked up, as a
        limiter in front would): past the budget it raises RateLimited; `spent` is on the answer or on
        the CountedRefusal raised.

        A key's record keeps only what its replay needs: the fingerprint, the version (the replayed 202 is
        that entry's version and hash) and, once recorded, the short `answer` of `record_response`."""

    def record_response(self, battle_id: str, key: str, version: int, response: str) -> bool:
        """Keep what the request that appended `version` with `key` answered (`response`: a short string
        the caller can rebuild the answer from, at most 64 characters), ending its lease; False when the
        key's record is gone or names another version."""

    def spend(self, battle_id: str, budget: Budget) -> Spent:
        """Count one request against `budget` in the battle's keys, as `append` does; nothing else."""

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

    def head_regressions(self, battle_id: str) -> list[HeadRegression]:
        """Each time an append found the head behind one it had acknowledged (entries lost to a failover
        or a crash), oldest first; the battle's audit reports them."""

    # --- access tokens (hashed) ------------------------------------------------------------------------
    def add_token(self, battle_id: str, token: TokenRecord, *, live_cap: int = 0, now: str = "") -> None:
        """Keep a token record under its digest; UnknownBattle if the battle does not exist; TooManyTokens
        when `live_cap` > 0 and the battle has that many live tokens (not revoked, `expires_at` after
        `now`, an ISO 8601 UTC time as the records write them) already."""

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

    def interrupt_follow(self) -> None:
        """End this process's follow_outcomes call in progress at once ({} when nothing came), or its next
        one if none is: the reader has a battle to add to what it watches."""

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

    def begin_folds(
        self, battle_ids: Sequence[str], owner: str, ttl_ms: int, *, limit: int
    ) -> list[FoldStart | None]:
        """For each battle, `try_lock` and, when it is ours, what its fold starts from (up to `limit`
        entries); None where another folder holds the lock. One round trip for all on Redis."""

    def finish_folds(self, owner: str, folds: Sequence[tuple[str, FoldSave | None]]) -> list[bool]:
        """For each battle, `save_projection` its last write (when there is one), then `unlock` it; whether
        each write was saved (False: guarded out, nothing to save, or no such battle). One round trip."""

    def mark_pending_again(self, battle_ids: Sequence[str]) -> bool:
        """`mark_pending` for several battles at once (those a drain found locked by another folder, those
        the reconciler found lagging); True when the caller should enqueue a projection job."""

    def lagging(self, battle_ids: Sequence[str]) -> list[str]:
        """Those of the battles whose projection is behind their log head, in order (a battle that does not
        exist does not lag). One round trip for all on Redis."""

    # --- webhooks: registrations, delivery progress, attempts ---------------------------------------------
    def add_webhook(self, battle_id: str, webhook: WebhookRecord) -> WebhookProgress:
        """Register a webhook, its cursor at the projected version (it is sent the outcomes after it), and
        list the battle among `webhook_battles`; UnknownBattle if the battle does not exist."""

    def webhooks(self, battle_id: str) -> list[WebhookRecord]:
        """The battle's webhooks, oldest first."""

    def have_webhooks(self, battle_ids: Sequence[str]) -> list[bool]:
        """Whether each battle has a webhook registered: one round trip for all on Redis."""

    def webhook(self, battle_id: str, webhook_id: str) -> WebhookRecord | None: ...

    def delete_webhook(self, battle_id: str, webhook_id: str) -> bool:
        """Drop the webhook, its progress, attempts, claim and lock; False when there is no such webhook."""

    def webhook_progress(self, battle_id: str, webhook_id: str) -> WebhookProgress | None: ...

    def save_webhook_progress(
        self,
        battle_id: str,
        webhook_id: str,
        progress: WebhookProgress,
        attempt: DeliveryAttempt | None = None,
    ) -> bool:
        """Store the progress and log the attempt (newest first, ATTEMPTS_KEPT of them) in one step, only
        while the webhook is registered and its stored epoch is still `progress.epoch`: False when it was
        deleted or recovered meanwhile (nothing is written)."""

    def replace_webhook(
        self, battle_id: str, webhook: WebhookRecord, read_secret: str, note: DeliveryAttempt | None = None
    ) -> bool:
        """Store `webhook` as the registration of its id and log `note`, in one step, only while the stored
        one's secret is still `read_secret`: False when it is gone or was rolled meanwhile (nothing is
        written)."""

    def recover_webhook(
        self, battle_id: str, webhook_id: str, cursor: int | None, note: DeliveryAttempt
    ) -> WebhookProgress | None:
        """In one step: no failures (`active`, a fresh retry window), the cursor at `cursor` (None: where it
        is), the epoch one more (a job still delivering saves nothing more), no claim, and `note` logged
        with `version` the first one to be sent. The new progress; None when there is no such webhook."""

    def note_webhook(self, battle_id: str, webhook_id: str, note: DeliveryAttempt) -> bool:
        """Log one line (a test event or a redelivery sent), the progress untouched; False when it is gone."""

    def delivery_attempts(self, battle_id: str, webhook_id: str, *, limit: int = 50) -> list[DeliveryAttempt]:
        """The latest attempts, newest first."""

    def webhook_battles(self) -> Iterator[str]:
        """Battles with a webhook registered (the reconciler's index): deleting a battle's last webhook
        drops it, and so does `forget_webhook_battle`; a battle listed may have none left meanwhile."""

    def forget_webhook_battle(self, battle_id: str) -> None:
        """Drop the battle from `webhook_battles` unless it has a webhook (the reconciler's cleanup)."""

    def claim_webhooks(
        self, battle_id: str, ttl_ms: int, webhook_ids: Sequence[str] | None = None
    ) -> list[str]:
        """Of the given webhooks (None: all of the battle's), those not failed and no delivery job was
        claimed for within `ttl_ms`, now claimed: the caller enqueues one job for each, so a busy battle
        never queues a job per fold. The job releases its claim once it holds the webhook's lock."""

    def release_webhook(self, battle_id: str, webhook_id: str) -> None: ...

    def try_lock_webhook(self, battle_id: str, webhook_id: str, owner: str, ttl_ms: int) -> bool:
        """One delivering job per webhook at a time, as `try_lock` is for folds."""

    def unlock_webhook(self, battle_id: str, webhook_id: str, owner: str) -> None: ...

    # --- Idempotency-Keys of the battle's webhook operations (their own, apart from the commands') --------
    def hold_request(self, battle_id: str, key: str, fingerprint: str, lease_ms: int) -> RequestRecord | None:
        """Take the key for the request of `fingerprint` for `lease_ms`: None when taken now; else what it
        holds (another request's fingerprint, and its answer unless that one is still in flight)."""

    def answer_request(self, battle_id: str, key: str, fingerprint: str, answer: str, ttl_ms: int) -> None:
        """Keep the answer a repeat of the key replays, for `ttl_ms`."""

    def release_request(self, battle_id: str, key: str, fingerprint: str) -> None:
        """Give the key up unanswered (the request was refused or failed), if this request still holds it."""
