"""When a webhook delivery job runs: woken by a fold that wrote outcomes, or by the reconciler for a webhook
whose cursor lags the projected version (a lost job) or whose retry is due. Claims keep it to one job."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from redis.exceptions import RedisError

from eventstore.protocol import EventStore, WebhookProgress
from workers import clock

CLAIM_TTL_MS = 60_000  # a claimed job lost before it ran is enqueued again by the reconciler after this
Enqueue = Callable[[str, str], None]  # (battle, webhook) -> one delivery job
log = logging.getLogger("siege.webhooks")


def wake(store: EventStore, enqueue: Enqueue, battle_id: str) -> int:
    """After a fold wrote outcomes: one round trip, and a job for each webhook not claimed yet. Never
    fails the fold: the reconciler catches what a lost wake leaves behind."""
    try:
        claimed = store.claim_webhooks(battle_id, CLAIM_TTL_MS)
        for webhook_id in claimed:
            enqueue(battle_id, webhook_id)
    except (RedisError, OSError) as error:
        log.warning("could not wake the webhooks of %s (%s); the reconciler will", battle_id, error)
        return 0
    except Exception:  # whatever it is, the fold's outcomes are written: the reconciler catches up
        log.exception("could not wake the webhooks of %s; the reconciler will", battle_id)
        return 0
    return len(claimed)


def reconcile_webhooks(store: EventStore, enqueue: Enqueue, now: datetime | None = None) -> int:
    """One pass: a job for every webhook that lags and is due, unless one is claimed already."""
    moment = now or clock.now()
    woken = 0
    for battle_id in store.webhook_battles():
        projected = store.projected_version(battle_id)
        due = [
            webhook.id
            for webhook in store.webhooks(battle_id)
            if _due(store.webhook_progress(battle_id, webhook.id), projected, moment)
        ]
        for webhook_id in store.claim_webhooks(battle_id, CLAIM_TTL_MS, due) if due else []:
            enqueue(battle_id, webhook_id)
            woken += 1
    return woken


def _due(progress: WebhookProgress | None, projected: int, moment: datetime) -> bool:
    if progress is None or progress.failed or progress.cursor >= projected:
        return False
    return progress.next_retry_at is None or clock.parse(progress.next_retry_at) <= moment
