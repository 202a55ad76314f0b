"""The records the storage contract (eventstore/roles/) takes and gives: entries, heads, budgets,
projections, folds, tokens, tickets and webhooks; frozen, as every backend hands them over."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

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
class HeadRegression:
    """An append found the log's head behind one acknowledged before: entries acknowledged were lost."""

    acknowledged: Head
    found: Head
    at_ms: int  # when it was seen (Unix ms)


@dataclass(frozen=True, slots=True)
class Window:
    """One fixed window of a rate budget: `amount` requests per `seconds`."""

    amount: int
    seconds: int


BATTLE_OWNER = "battle"  # the counters of a battle's shared budget (a token's owner is `token:<id>`)


@dataclass(frozen=True, slots=True, kw_only=True)
class Budget:
    """A caller's rate budget counted in the battle's own keys (its hash tag): one counter per window,
    each starting at its first hit and lasting `seconds`, as flask-limiter's fixed window does."""

    owner: str  # whose budget: one counter set per owner (a token id)
    windows: tuple[Window, ...]
    shared: tuple[Window, ...] = ()  # the battle's own budget, which every token of it spends too

    def counted(self) -> tuple[tuple[str, Window], ...]:
        """Every counter this budget hits: (its owner, its window), the owner's first, then the battle's."""
        return (*((self.owner, w) for w in self.windows), *((BATTLE_OWNER, w) for w in self.shared))


@dataclass(frozen=True, slots=True, kw_only=True)
class Spent:
    """A budget after one more request: its tightest window, what is left in it, when it starts over."""

    window: Window
    left: int  # negative once the request went past the budget
    reset_s: float
    shared: bool = False  # the tightest window is the battle's budget, not the token's

    @property
    def breached(self) -> bool:
        return self.left < 0


@dataclass(frozen=True, slots=True, kw_only=True)
class AppendRequest:
    """One append, as `Log.append` takes it (what each option does is told there): the entry, and what
    the append checks and counts before it lands."""

    battle_id: str
    entry: NewEntry
    expected_version: int | None = None  # the head the entry must follow; None: wherever the head is
    fingerprint: str | None = None  # of the request a keyed entry came with: a replay must match it
    mark_pending: bool = False  # mark the battle pending once the entry lands, in the same round trip
    retain_s: float = IDEMPOTENCY_RETAIN_S  # how long a keyed entry's record answers its key
    lease_s: float = 0.0  # how long the key stays in flight until its response is recorded (0: not at all)
    token_digest: str | None = None  # the token the entry is appended under, which must still stand
    budget: Budget | None = None  # the rate budget the append is counted against


@dataclass(frozen=True, slots=True, kw_only=True)
class Appended:
    """Where an append landed; `replayed` is true when an idempotency record answered instead, with
    `response` the one recorded for the key (None when its request never recorded one).

    `enqueue` is true when the append was asked to mark the battle pending and no projection job was
    scheduled yet: the caller enqueues one (as with `mark_pending`). `spent`: the budget the append was
    counted against, when it was given one."""

    version: int
    hash: str
    replayed: bool = False
    enqueue: bool = False
    response: str | None = None
    spent: Spent | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportRequest:
    """A whole history to recreate a battle from, as `Log.import_battle` takes it: the entries, streamed
    in version order, land `batch` at a time; the secret seed and the first token once the last one has."""

    battle_id: str
    entries: Iterable[StoredEntry]
    server_seed: str
    token: TokenRecord | None = None
    batch: int = 1000


@dataclass(frozen=True, slots=True, kw_only=True)
class Projection:
    version: int
    state: str  # canonical JSON of the encoded battle


@dataclass(frozen=True, slots=True, kw_only=True)
class FoldStart:
    """What a fold starts from, read under its lock: the stored projection and the log entries after it
    (at most the limit asked for; more may follow). No projection and no entries: no such battle."""

    projection: Projection | None
    entries: list[StoredEntry]


@dataclass(frozen=True, slots=True, kw_only=True)
class FoldSave:
    """A fold's last write, as `save_projection` takes it."""

    state: Projection
    outcomes: Sequence[tuple[int, str]]
    snapshots: Sequence[Projection] = ()


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
class WebhookRecord:
    """A registered webhook; `secret` is kept as is because every delivery is signed with it (the API shows
    it once, at registration, and once at each roll). `types` are the CloudEvent types it is sent,
    `language` its summaries'. After a roll, `previous_secret` signs every delivery too until
    `previous_expires_at`, so a receiver can switch secrets without refusing one."""

    id: str
    url: str
    types: tuple[str, ...]
    language: str
    secret: str
    created_at: str
    start_version: int = 0  # the projected version at registration (set by the store): delivery starts after
    previous_secret: str | None = None
    previous_expires_at: str | None = None  # UTC ISO 8601


@dataclass(frozen=True, slots=True, kw_only=True)
class WebhookProgress:
    """How far a webhook got: `cursor` is the last version delivered (or passed over, its type not asked
    for); while attempts fail, how many in a row, since when, and when the next one is due."""

    cursor: int
    failures: int = 0
    failing_since: str | None = None  # UTC ISO 8601
    next_retry_at: str | None = None  # UTC ISO 8601
    failed: bool = False  # failing for the whole retry horizon: no more attempts
    epoch: int = 0  # bumped by each recovery: a job that read an older one saves nothing (it was superseded)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeliveryAttempt:
    """One line of a webhook's deliveries log. A POST (`kind` outcome, redelivery or test) has a `status`:
    `delivered` (a 2xx), `failed` (any other answer, a timeout, a reset) or `refused` (the host resolved to
    an address webhooks may not reach). A change to the webhook (`secret_rolled`, `secret_dropped`,
    `recovered`) sent nothing: its `status` is None and `note` says what changed."""

    at: str
    version: int | None  # None: no outcome's (a test event, a secret's roll)
    status: str | None
    code: int | None
    duration_ms: float
    error: str | None
    next_retry_at: str | None
    kind: str = "outcome"
    event_id: str | None = None  # the webhook-id sent
    note: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestRecord:
    """What an Idempotency-Key of a battle's webhook operations holds: the fingerprint of the request that
    took it and, once that one was answered, the answer a repeat replays (None while it is in flight)."""

    fingerprint: str
    answer: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TicketRecord:
    """A stream ticket as stored under `digest`, the SHA-256 of the ticket: the role of the token it was
    minted with, and that token's digest, so a ticket of a revoked token opens nothing."""

    digest: str
    token_digest: str
    token_id: str
    role: str
    scope: str | None = None
