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

from eventstore.paging import with_entries
from eventstore.protocol import EventStore
from eventstore.records import DeliveryAttempt, WebhookProgress, WebhookRecord
from summaries import summarized
from webhooks import event, guard, send
from webhooks.backoff import gives_up, retry_delay_s
from webhooks.settings import WebhookSettings
from workers import clock
from workers.drain import folder_name
from workers.webhook_schedule import CLAIM_TTL_MS, Enqueue

BATCH = 50  # outcomes read per round trip
BUDGET_S = 60.0  # a job that never catches up hands over to a fresh one before RQ's timeout
LOCK_WAIT_S = 1.0  # a job finding the webhook locked waits this long, then leaves it to the holder
Ending = Literal["caught_up", "failing", "failed", "waiting", "busy", "gone", "handed_off"]


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

    store: EventStore
    settings: WebhookSettings
    requeue: Enqueue
    resolve: guard.Resolve | None = None
    now: Callable[[], datetime] = clock.now
    budget_s: float = BUDGET_S

    @property
    def lock_ttl_ms(self) -> int:
        return int((self.settings.timeout_s * 3 + 5) * 1000)  # one attempt: connect, send, read, and slack


def deliver(run: Deliverer, battle_id: str, webhook_id: str) -> Delivered:
    store, owner = run.store, folder_name("webhook")
    if not _lock(run, battle_id, webhook_id, owner):
        return Delivered(ending="busy")  # its claim stays: the holder releases it when it is done
    store.release_webhook(battle_id, webhook_id)  # from here, an outcome folded wakes a follow-up job
    try:
        done = _deliver_locked(run, battle_id, webhook_id, owner)
    finally:
        store.unlock_webhook(battle_id, webhook_id, owner)
    if done.retry_in_s is not None:  # no job per fold while the receiver is down: the retry is due later
        store.release_webhook(battle_id, webhook_id)  # a claim a woken job left must not outlast the due time
        store.claim_webhooks(battle_id, max(int(done.retry_in_s * 1000), 1), [webhook_id])
    elif done.ending in ("caught_up", "handed_off"):
        store.release_webhook(battle_id, webhook_id)
        if done.cursor is not None and store.projected_version(battle_id) > done.cursor:
            _requeue(run, battle_id, webhook_id)  # outcomes landed after the last read
    return done


def _lock(run: Deliverer, battle_id: str, webhook_id: str, owner: str) -> bool:
    deadline = time.monotonic() + LOCK_WAIT_S
    while not run.store.try_lock_webhook(battle_id, webhook_id, owner, run.lock_ttl_ms):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _requeue(run: Deliverer, battle_id: str, webhook_id: str) -> None:
    if run.store.claim_webhooks(battle_id, CLAIM_TTL_MS, [webhook_id]):
        run.requeue(battle_id, webhook_id)


def _deliver_locked(run: Deliverer, battle_id: str, webhook_id: str, owner: str) -> Delivered:
    store = run.store
    hook, progress = store.webhook(battle_id, webhook_id), store.webhook_progress(battle_id, webhook_id)
    if hook is None or progress is None:
        return Delivered(ending="gone")
    if progress.failed:
        return Delivered(ending="failed", cursor=progress.cursor)
    if progress.next_retry_at is not None:
        wait_s = (clock.parse(progress.next_retry_at) - run.now()).total_seconds()
        if wait_s > 0:
            return Delivered(ending="waiting", cursor=progress.cursor, retry_in_s=wait_s)
    created = store.entry(battle_id, 1)
    ruleset = str(created.data.get("ruleset")) if created else ""  # unknown: summaries fall back to codes
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
            if not store.save_webhook_progress(battle_id, webhook_id, progress, attempt):
                return Delivered(ending="gone", delivered=delivered)  # deleted while we were sending
            if attempt.status != "delivered":
                return _failing(progress, delivered, skipped, run.now())
            delivered += 1
            store.try_lock_webhook(battle_id, webhook_id, owner, run.lock_ttl_ms)  # renewed per attempt
        if skipped and not store.save_webhook_progress(battle_id, webhook_id, progress):
            return Delivered(ending="gone", delivered=delivered)
    return Delivered(ending="handed_off", delivered=delivered, skipped=skipped, cursor=progress.cursor)


def _attempt(
    run: Deliverer,
    battle_id: str,
    hook: WebhookRecord,
    progress: WebhookProgress,
    told: dict[str, Any],
    recorded_at: str,
) -> tuple[DeliveryAttempt, WebhookProgress]:
    """POST one outcome (after checking, again, where the URL's host resolves now) and say what it did."""
    version, moment = int(told["version"]), run.now()
    try:
        resolve = guard.bounded(run.resolve or guard.system_resolve, run.settings.resolve_timeout_s)
        target = guard.target(hook.url, run.settings.allow, resolve)
    except guard.Refused as refused:
        answer, status = send.Answer(code=None, error=str(refused), duration_ms=0.0), "refused"
    else:
        event_id, payload, content_type = event.body(
            run.settings.source(battle_id), battle_id, told, recorded_at
        )
        message = event.signed(hook.secret, event_id, payload, content_type, moment)
        answer = send.post(target, message, run.settings.timeout_s)
        status = "delivered" if answer.ok else "failed"
    progress = WebhookProgress(cursor=version) if answer.ok else _backoff(run, progress, moment)
    attempt = DeliveryAttempt(
        at=clock.iso(moment),
        version=version,
        status=status,
        code=answer.code,
        duration_ms=answer.duration_ms,
        error=answer.error,
        next_retry_at=progress.next_retry_at,
    )
    return attempt, progress


def _backoff(run: Deliverer, progress: WebhookProgress, moment: datetime) -> WebhookProgress:
    since = progress.failing_since or clock.iso(moment)
    failures = progress.failures + 1
    if gives_up((moment - clock.parse(since)).total_seconds(), run.settings):
        return WebhookProgress(cursor=progress.cursor, failures=failures, failing_since=since, failed=True)
    due = clock.later(moment, retry_delay_s(failures, run.settings))
    return WebhookProgress(
        cursor=progress.cursor, failures=failures, failing_since=since, next_retry_at=clock.iso(due)
    )


def _failing(progress: WebhookProgress, delivered: int, skipped: int, moment: datetime) -> Delivered:
    if progress.failed or progress.next_retry_at is None:
        return Delivered(ending="failed", delivered=delivered, skipped=skipped, cursor=progress.cursor)
    wait_s = max((clock.parse(progress.next_retry_at) - moment).total_seconds(), 0.001)
    return Delivered(
        ending="failing", delivered=delivered, skipped=skipped, cursor=progress.cursor, retry_in_s=wait_s
    )
