"""Deliver one webhook's outcomes from its cursor on, in version order, at least once: under the webhook's
lock, each outcome POSTed until a 2xx moves the cursor past it; a failure records when to try again
(workers.webhook_schedule runs that try) or, past the retry horizon, marks the webhook failed."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal

from eventstore import clock
from eventstore.paging import with_entries
from eventstore.records import DeliveryAttempt, WebhookProgress, WebhookRecord
from eventstore.roles import Deliveries, Log, Webhooks
from summaries import summarized
from webhooks import event, guard, send
from webhooks.backoff import gives_up, retry_delay_s
from webhooks.settings import WebhookSettings
from workers.drain import folder_name
from workers.webhook_schedule import CLAIM_TTL_MS, Enqueue

BATCH = 50  # outcomes read per round trip
BUDGET_S = 60.0  # a job that never catches up hands over to a fresh one before RQ's timeout
LOCK_WAIT_S = 1.0  # a job finding the webhook locked waits this long, then leaves it to the holder
# superseded: a recovery moved the webhook on while this job delivered; a fresh job takes over
Status = Literal["delivered", "failed", "refused"]  # of one POST, as its deliveries log says
Ending = Literal["caught_up", "failing", "failed", "waiting", "busy", "gone", "handed_off", "superseded"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Delivered:
    ending: Ending
    delivered: int = 0
    skipped: int = 0  # outcomes of a type the webhook did not ask for
    cursor: int | None = None
    retry_in_s: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Deliverer:
    """What a delivery runs with; `resolve` and `now` are the system's unless a test hands in its own."""

    store: Log  # the outcomes it sends, and the commands they answer
    webhooks: Webhooks
    deliveries: Deliveries
    settings: WebhookSettings
    requeue: Enqueue
    resolve: guard.Resolve | None = None
    now: Callable[[], datetime] = clock.now
    budget_s: float = BUDGET_S

    @property
    def lock_ttl_ms(self) -> int:
        return int((self.settings.timeout_s * 3 + 5) * 1000)  # one attempt: connect, send, read, and slack


def deliver(run: Deliverer, battle_id: str, webhook_id: str) -> Delivered:
    deliveries, owner = run.deliveries, folder_name("webhook")
    if not _lock(run, battle_id, webhook_id, owner):
        return Delivered(ending="busy")  # its claim stays: the holder releases it when it is done
    deliveries.release_webhook(battle_id, webhook_id)  # from here, an outcome folded wakes a follow-up job
    try:
        done = _deliver_locked(run, battle_id, webhook_id, owner)
    finally:
        deliveries.unlock_webhook(battle_id, webhook_id, owner)
    if done.retry_in_s is not None:  # no job per fold while the receiver is down: the retry is due later
        deliveries.release_webhook(
            battle_id, webhook_id
        )  # a claim a woken job left must not outlast the due time
        deliveries.claim_webhooks(battle_id, max(int(done.retry_in_s * 1000), 1), [webhook_id])
    elif done.ending in ("caught_up", "handed_off", "superseded"):
        deliveries.release_webhook(battle_id, webhook_id)
        if done.cursor is not None and run.store.projected_version(battle_id) > done.cursor:
            _requeue(run, battle_id, webhook_id)  # outcomes landed after the last read
    return done


def _lock(run: Deliverer, battle_id: str, webhook_id: str, owner: str) -> bool:
    deadline = time.monotonic() + LOCK_WAIT_S
    while not run.deliveries.try_lock_webhook(battle_id, webhook_id, owner, run.lock_ttl_ms):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _requeue(run: Deliverer, battle_id: str, webhook_id: str) -> None:
    if run.deliveries.claim_webhooks(battle_id, CLAIM_TTL_MS, [webhook_id]):
        run.requeue(battle_id, webhook_id)


def _deliver_locked(run: Deliverer, battle_id: str, webhook_id: str, owner: str) -> Delivered:
    store, webhooks, deliveries = run.store, run.webhooks, run.deliveries
    hook, progress = webhooks.webhook(battle_id, webhook_id), webhooks.webhook_progress(battle_id, webhook_id)
    if hook is None or progress is None:
        return Delivered(ending="gone")
    if progress.failed:
        return Delivered(ending="failed", cursor=progress.cursor)
    hook = current(run, battle_id, hook)
    if progress.next_retry_at is not None:
        wait_s = (clock.parse_iso(progress.next_retry_at) - run.now()).total_seconds()
        if wait_s > 0:
            return Delivered(ending="waiting", cursor=progress.cursor, retry_in_s=wait_s)
    ruleset = ruleset_of(store, battle_id)
    deadline, delivered, skipped = time.monotonic() + run.budget_s, 0, 0
    while time.monotonic() < deadline:
        outcomes = store.outcomes(battle_id, after=progress.cursor, limit=BATCH)
        if not outcomes:
            return Delivered(ending="caught_up", delivered=delivered, skipped=skipped, cursor=progress.cursor)
        for entry, raw in with_entries(store, battle_id, outcomes):
            version = entry.version
            told = summarized(ruleset, json.loads(raw), entry.data, hook.language)
            if event.event_type(told) not in hook.types:
                progress, skipped = replace(progress, cursor=version), skipped + 1
                continue
            attempt, progress = _attempt(run, battle_id, hook, progress, told, entry.recorded_at)
            if not deliveries.save_webhook_progress(battle_id, webhook_id, progress, attempt):
                return _unsaved(run, battle_id, webhook_id, delivered)
            if attempt.status != "delivered":
                return _failing(progress, delivered, skipped, run.now())
            delivered += 1
            deliveries.try_lock_webhook(battle_id, webhook_id, owner, run.lock_ttl_ms)  # renewed per attempt
        if skipped and not deliveries.save_webhook_progress(battle_id, webhook_id, progress):
            return _unsaved(run, battle_id, webhook_id, delivered)
    return Delivered(ending="handed_off", delivered=delivered, skipped=skipped, cursor=progress.cursor)


def _unsaved(run: Deliverer, battle_id: str, webhook_id: str, delivered: int) -> Delivered:
    """Deleted while we were sending, or recovered (its epoch moved on): then a fresh job delivers."""
    if run.webhooks.webhook(battle_id, webhook_id) is None:
        return Delivered(ending="gone", delivered=delivered)
    progress = run.webhooks.webhook_progress(battle_id, webhook_id)
    cursor = progress.cursor if progress is not None else None
    return Delivered(ending="superseded", delivered=delivered, cursor=cursor)


def signing_keys(hook: WebhookRecord, now: datetime) -> tuple[str, ...]:
    """The secrets a delivery is signed with: the webhook's, and during a roll's overlap the one before."""
    if hook.previous_secret and hook.previous_expires_at and clock.parse_iso(hook.previous_expires_at) > now:
        return (hook.secret, hook.previous_secret)
    return (hook.secret,)


def current(run: Deliverer, battle_id: str, hook: WebhookRecord) -> WebhookRecord:
    """The registration with a previous secret whose overlap ended erased, and the deliveries log told so
    (once: a roll in between leaves it to the next read)."""
    if hook.previous_secret is None or signing_keys(hook, run.now()) != (hook.secret,):
        return hook
    dropped = replace(hook, previous_secret=None, previous_expires_at=None)
    line = DeliveryAttempt(
        at=clock.iso(run.now()),
        version=None,
        status=None,
        code=None,
        duration_ms=0.0,
        error=None,
        next_retry_at=None,
        kind=event.SECRET_DROPPED,
        note=f"the previous secret's overlap ended at {hook.previous_expires_at}: it signs no more",
    )
    if run.webhooks.replace_webhook(battle_id, dropped, hook.secret, line):
        return dropped
    return run.webhooks.webhook(battle_id, hook.id) or dropped


def _attempt(
    run: Deliverer,
    battle_id: str,
    hook: WebhookRecord,
    progress: WebhookProgress,
    told: dict[str, Any],
    recorded_at: str,
) -> tuple[DeliveryAttempt, WebhookProgress]:
    """POST one outcome and say what it did, and where that leaves the webhook."""
    version, moment = int(told["version"]), run.now()
    built = event.body(run.settings.source(battle_id), battle_id, told, recorded_at)
    answer, status = post_signed(run, hook, built, moment)
    done = WebhookProgress(cursor=version, epoch=progress.epoch)
    progress = done if answer.ok else _backoff(run, progress, moment)
    attempt = DeliveryAttempt(
        at=clock.iso(moment),
        version=version,
        status=status,
        code=answer.code,
        duration_ms=answer.duration_ms,
        error=answer.error,
        next_retry_at=progress.next_retry_at,
        event_id=event.message_id(battle_id, version),
    )
    return attempt, progress


def post_signed(
    run: Deliverer, hook: WebhookRecord, built: tuple[str, bytes, str], moment: datetime
) -> tuple[send.Answer, Status]:
    """POST one event (`(id, body, content type)`), signed with the webhook's secrets, after checking, again,
    where the URL's host resolves now; the answer and the attempt's status."""
    try:
        resolve = guard.bounded(run.resolve or guard.system_resolve, run.settings.resolve_timeout_s)
        target = guard.target(hook.url, run.settings.allow, resolve)
    except guard.Refused as refused:
        return send.Answer(code=None, error=str(refused), duration_ms=0.0), "refused"
    event_id, payload, content_type = built
    message = event.signed(signing_keys(hook, moment), event_id, payload, content_type, moment)
    answer = send.post(target, message, run.settings.timeout_s)
    return answer, "delivered" if answer.ok else "failed"


def ruleset_of(store: Log, battle_id: str) -> str:
    """The battle's ruleset, which its summaries are told in ("" when unknown: they fall back to codes)."""
    created = store.entry(battle_id, 1)
    return str(created.data.get("ruleset")) if created else ""


def _backoff(run: Deliverer, progress: WebhookProgress, moment: datetime) -> WebhookProgress:
    since = progress.failing_since or clock.iso(moment)
    failures = progress.failures + 1
    if gives_up((moment - clock.parse_iso(since)).total_seconds(), run.settings):
        return replace(progress, failures=failures, failing_since=since, next_retry_at=None, failed=True)
    due = clock.later(moment, retry_delay_s(failures, run.settings))
    return replace(progress, failures=failures, failing_since=since, next_retry_at=clock.iso(due))


def _failing(progress: WebhookProgress, delivered: int, skipped: int, moment: datetime) -> Delivered:
    if progress.failed or progress.next_retry_at is None:
        return Delivered(ending="failed", delivered=delivered, skipped=skipped, cursor=progress.cursor)
    wait_s = max((clock.parse_iso(progress.next_retry_at) - moment).total_seconds(), 0.001)
    return Delivered(
        ending="failing", delivered=delivered, skipped=skipped, cursor=progress.cursor, retry_in_s=wait_s
    )
