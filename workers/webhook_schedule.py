"""When a webhook delivery job runs: woken by a fold that wrote outcomes, or by the reconciler for a webhook
whose cursor lags the projected version (a lost job) or whose retry is due. Claims keep it to one job."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime

from redis.exceptions import RedisError

from eventstore import clock
from eventstore.queues import WEBHOOK_CLAIM_TTL_MS
from eventstore.records import WebhookProgress
from eventstore.roles import Deliveries, Log, Webhooks

CLAIM_TTL_MS = WEBHOOK_CLAIM_TTL_MS  # a claimed job lost before it ran is enqueued again after this
Enqueue = Callable[[str, str], None]  # (battle, webhook) -> one delivery job
# how long a fold takes a battle's having webhooks or not as known: a registration the folds miss meanwhile
# loses nothing, since its cursor lags the projection and the reconciler's next pass (every second or so)
# enqueues it; a deletion missed only costs a claim that claims nothing
KNOWN_FOR_S = 1.0
KNOWN_CACHE = 4096  # battles remembered per worker process
_known: dict[str, tuple[float, bool]] = {}  # battle -> (known until, on the monotonic clock; has webhooks)
_known_lock = threading.Lock()  # the drain's folders call in from several threads
log = logging.getLogger("siege.webhooks")


def wake(webhooks: Webhooks, deliveries: Deliveries, enqueue: Enqueue, battle_id: str) -> int:
    """After a fold wrote outcomes: one round trip, and a job for each webhook not claimed yet. Never
    fails the fold: the reconciler catches what a lost wake leaves behind. A battle without webhooks (most)
    costs one look a second, not a round trip per fold."""
    try:
        if not has_webhooks(webhooks, battle_id):
            return 0
        claimed = deliveries.claim_webhooks(battle_id, CLAIM_TTL_MS)
        for webhook_id in claimed:
            enqueue(battle_id, webhook_id)
    except (RedisError, OSError) as error:
        log.warning("could not wake the webhooks of %s (%s); the reconciler will", battle_id, error)
        return 0
    except Exception:  # whatever it is, the fold's outcomes are written: the reconciler catches up
        log.exception("could not wake the webhooks of %s; the reconciler will", battle_id)
        return 0
    return len(claimed)


def wake_all(webhooks: Webhooks, deliveries: Deliveries, enqueue: Enqueue, battle_ids: Sequence[str]) -> int:
    """`wake` for each battle a drain round wrote outcomes to, asking about every battle whose webhooks are
    not known in one round trip, not one each: with many battles most folds would ask."""
    unknown = [battle_id for battle_id in battle_ids if _known_now(battle_id) is None]
    try:
        for battle_id, has in zip(unknown, webhooks.have_webhooks(unknown) if unknown else [], strict=True):
            _learn(battle_id, has)
    except (RedisError, OSError) as error:
        log.warning(
            "could not wake the webhooks of %d battles (%s); the reconciler will", len(unknown), error
        )
        return 0
    return sum(wake(webhooks, deliveries, enqueue, battle_id) for battle_id in battle_ids)


def has_webhooks(store: Webhooks, battle_id: str) -> bool:
    """Whether the battle has webhooks, as read at most KNOWN_FOR_S ago."""
    known = _known_now(battle_id)
    if known is not None:
        return known
    has = bool(store.have_webhooks([battle_id])[0])
    _learn(battle_id, has)
    return has


def _known_now(battle_id: str) -> bool | None:
    with _known_lock:
        known = _known.get(battle_id)
    return known[1] if known is not None and known[0] > time.monotonic() else None


def _learn(battle_id: str, has: bool) -> None:
    with _known_lock:
        _known.pop(battle_id, None)  # re-inserted last: the oldest entry is the least recently read
        if len(_known) >= KNOWN_CACHE:
            del _known[next(iter(_known))]
        _known[battle_id] = (time.monotonic() + KNOWN_FOR_S, has)


def reconcile_webhooks(
    store: Log, webhooks: Webhooks, deliveries: Deliveries, enqueue: Enqueue, now: datetime | None = None
) -> int:
    """One pass: a job for every webhook that lags and is due, unless one is claimed already."""
    moment = now or clock.now()
    woken = 0
    for battle_id in webhooks.webhook_battles():
        hooks = webhooks.webhooks(battle_id)
        if not hooks:  # its last webhook went (or the battle did) without the index hearing of it
            webhooks.forget_webhook_battle(battle_id)
            continue
        projected = store.projected_version(battle_id)
        due = [w.id for w in hooks if _due(webhooks.webhook_progress(battle_id, w.id), projected, moment)]
        for webhook_id in deliveries.claim_webhooks(battle_id, CLAIM_TTL_MS, due) if due else []:
            enqueue(battle_id, webhook_id)
            woken += 1
    return woken


def _due(progress: WebhookProgress | None, projected: int, moment: datetime) -> bool:
    if progress is None or progress.failed or progress.cursor >= projected:
        return False
    return progress.next_retry_at is None or clock.parse_iso(progress.next_retry_at) <= moment
