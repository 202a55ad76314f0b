"""What a GM does to keep a webhook healthy for years: roll its secret with an overlap, recover it once it
failed (or replay it from a version), send one outcome again, send a test event. Each answers what its
endpoint returns, `(status, body, headers)`, so service/webhooks/keyed.py can keep it under an
Idempotency-Key.
The API posts to no receiver itself: the sends are jobs of the webhook worker, which signs and logs them."""

from __future__ import annotations

import dataclasses
import logging
from datetime import timedelta
from typing import Any

from redis import Redis
from redis.exceptions import RedisError
from rq import Queue

from eventstore.clock import iso, now, utc_now
from eventstore.queues import DELIVER_WEBHOOK, SEND_WEBHOOK, SERIALIZER, WEBHOOK_CLAIM_TTL_MS
from eventstore.records import DeliveryAttempt, WebhookProgress
from eventstore.roles import Deliveries, Log, Webhooks
from service.http.problems import RETRY_SOON, Problem, validation_problem
from service.webhooks.keyed import Answer
from service.webhooks.registration import found, no_such_webhook, overlap_until, state_of, webhook_view
from webhooks import event

ROLL_TRIES = 3  # a roll that lost to another one at once reads the webhook again, this many times
NOTHING_CHANGED = "Nothing was changed."
log = logging.getLogger(__name__)


def roll_secret(store: Webhooks, battle_id: str, webhook_id: str, overlap_s: int) -> Answer:
    """A new secret, shown this once; the one before still signs for `overlap_s` (0: it stops at once,
    and so does any earlier one). While an earlier roll's overlap is open, only a roll with 0 is taken."""
    for _ in range(ROLL_TRIES):
        hook, moment = found(store, battle_id, webhook_id), now()
        still = overlap_until(hook, moment)
        if still is not None and overlap_s > 0:
            raise Problem(
                409,
                "webhook-secret-overlap",
                "A roll's overlap is still open",
                f"The secret before the last roll signs until {still}, beside the current one. Roll again "
                "once it ends, or now with overlap_s 0, which leaves the new secret alone signing (for a "
                "leaked secret).",
                previous_secret_expires_at=still,
            )
        until = iso(moment + timedelta(seconds=overlap_s)) if overlap_s > 0 else None
        rolled = dataclasses.replace(
            hook,
            secret=event.new_secret(),
            previous_secret=hook.secret if until else None,
            previous_expires_at=until,
        )
        said = f"the previous secret signs too until {until}" if until else "no earlier secret signs any more"
        if store.replace_webhook(
            battle_id, rolled, hook.secret, _line(event.SECRET_ROLLED, f"rolled: {said}")
        ):
            view = webhook_view(rolled, store.webhook_progress(battle_id, webhook_id))
            return 200, {**view, "secret": rolled.secret}, {}
    raise Problem(
        409,
        "contention",
        "The webhook is busy",
        "Other rolls kept landing first; roll again.",
        headers=RETRY_SOON,
    )


def recover(
    store: Log,
    webhooks: Webhooks,
    deliveries: Deliveries,
    queue_redis: Redis[Any],
    battle_id: str,
    webhook_id: str,
    from_version: int | None,
    before_registration: bool,
) -> Answer:
    """Resume a `failed` or `retrying` webhook from its cursor, or any webhook from `from_version`: in
    order, at least once, with the usual backoff and a fresh retry window."""
    hook = found(webhooks, battle_id, webhook_id)
    state = state_of(webhooks.webhook_progress(battle_id, webhook_id) or WebhookProgress(cursor=0))
    if from_version is None and state == "active":
        raise Problem(
            409,
            "webhook-active",
            "The webhook is active",
            f"Webhook {webhook_id} delivers as it should: there is nothing to recover. Send `from_version` "
            "to send its outcomes again from a version.",
        )
    if from_version is not None:
        _check_from(store, battle_id, hook.start_version, from_version, before_registration)
    told = f"recovered from {state}" + (
        f", sending again from version {from_version}" if from_version else ""
    )
    cursor = None if from_version is None else from_version - 1
    fresh = webhooks.recover_webhook(battle_id, webhook_id, cursor, _line(event.RECOVERED, told))
    if fresh is None:
        raise no_such_webhook(battle_id, webhook_id)
    _wake(deliveries, queue_redis, battle_id, webhook_id)
    return 200, webhook_view(hook, fresh), {}


def redeliver(
    store: Log, webhooks: Webhooks, queue_redis: Redis[Any], battle_id: str, webhook_id: str, version: int
) -> Answer:
    """One outcome sent again, once, with the id of its first delivery; the cursor does not move."""
    found(webhooks, battle_id, webhook_id)
    head = store.head(battle_id).version
    if not 1 <= version <= head:
        detail = f"Battle {battle_id} has versions 1 to {head}; {version} is none of them."
        raise Problem(404, "version-not-found", "No such version", detail)
    if version > store.projected_version(battle_id):
        raise Problem(
            409,
            "outcome-pending",
            "The outcome is not decided yet",
            f"Version {version} has no outcome yet: it is delivered in order once it has one.",
            headers=RETRY_SOON,
        )
    return _send(
        queue_redis, battle_id, webhook_id, event.REDELIVERY, event.message_id(battle_id, version), version
    )


def send_test(store: Webhooks, queue_redis: Redis[Any], battle_id: str, webhook_id: str) -> Answer:
    """A signed `siege.webhook.test` event, whatever the webhook's types and state; never in its cursor."""
    found(store, battle_id, webhook_id)
    return _send(queue_redis, battle_id, webhook_id, event.TEST, event.probe_id(battle_id), None)


def _check_from(store: Log, battle_id: str, start: int, from_version: int, before: bool) -> None:
    if from_version <= start and not before:
        reason = (
            f"The webhook was registered at version {start}: send a later version, or before_registration "
            "true to send it outcomes from before its registration too."
        )
        raise validation_problem({"from_version": [reason]}, NOTHING_CHANGED)
    head = store.head(battle_id).version
    if from_version > head + 1:
        reason = f"The battle's head is version {head}: send at most {head + 1} (from the next outcome on)."
        raise validation_problem({"from_version": [reason]}, NOTHING_CHANGED)


def _send(
    queue_redis: Redis[Any], battle_id: str, webhook_id: str, kind: str, event_id: str, version: int | None
) -> Answer:
    requested_at = utc_now()
    queue = Queue(SEND_WEBHOOK.queue, connection=queue_redis, serializer=SERIALIZER)
    try:
        job = queue.enqueue(
            SEND_WEBHOOK.path,
            battle_id,
            webhook_id,
            kind,
            event_id,
            requested_at,
            version,
            **SEND_WEBHOOK.options(),
        )
    except (RedisError, OSError) as error:
        detail = f"The job queue is unreachable ({type(error).__name__}); nothing was sent."
        raise Problem(
            503, "queue-unavailable", "The job queue is unavailable", detail, headers=RETRY_SOON
        ) from None
    body = {
        "kind": kind,
        "event_id": event_id,
        "version": version,
        "requested_at": requested_at,
        "job_id": str(job.id),
    }
    return 202, body, {"Location": f"/battles/{battle_id}/webhooks/{webhook_id}/deliveries"}


def _wake(store: Deliveries, queue_redis: Redis[Any], battle_id: str, webhook_id: str) -> None:
    """A delivery job now, unless one is claimed. Never fails the recovery: it is stored, and the
    reconciler's next pass enqueues a job for a webhook whose cursor lags with no retry due."""
    try:
        if not store.claim_webhooks(battle_id, WEBHOOK_CLAIM_TTL_MS, [webhook_id]):
            return
        queue = Queue(DELIVER_WEBHOOK.queue, connection=queue_redis, serializer=SERIALIZER)
        try:
            queue.enqueue(DELIVER_WEBHOOK.path, battle_id, webhook_id, **DELIVER_WEBHOOK.options())
        except (RedisError, OSError):
            store.release_webhook(battle_id, webhook_id)  # so the reconciler need not wait for the claim
            raise
    except (RedisError, OSError) as error:
        log.warning(
            "could not enqueue the delivery of %s/%s (%s); the reconciler will", battle_id, webhook_id, error
        )


def _line(kind: str, note: str) -> DeliveryAttempt:
    """A change to the webhook, in its deliveries log: nothing was sent."""
    return DeliveryAttempt(
        at=utc_now(),
        version=None,
        status=None,
        code=None,
        duration_ms=0.0,
        error=None,
        next_retry_at=None,
        kind=kind,
        note=note,
    )
