"""Registering a battle's webhooks and showing them: the address check, the secret shown once, the views."""

from __future__ import annotations

import dataclasses
import secrets
from datetime import datetime
from typing import Any

from eventstore.clock import now, parse_iso, utc_now
from eventstore.records import WebhookProgress, WebhookRecord
from eventstore.roles import Webhooks
from service.http.problems import Problem, validation_problem
from summaries.catalogs import DEFAULT
from webhooks import guard
from webhooks.event import TYPES, new_secret
from webhooks.settings import WebhookSettings

MAX_PER_BATTLE = 10  # each outcome is posted once per webhook: the fan-out a battle may ask for


def register(
    store: Webhooks,
    battle_id: str,
    body: dict[str, Any],
    settings: WebhookSettings,
    resolve: guard.Resolve | None = None,
) -> dict[str, Any]:
    """Check where the URL's host resolves now (the worker checks again at each delivery), then keep it.
    `resolve` is the system's unless a test hands in its own; either gets settings.resolve_timeout_s."""
    try:
        guard.target(
            body["url"],
            settings.allow,
            guard.bounded(resolve or guard.system_resolve, settings.resolve_timeout_s),
        )
    except guard.Refused as refused:
        raise Problem(
            422,
            "webhook-address-refused",
            "Webhooks may not reach this address",
            f"{refused} Nothing was registered.",
            errors={"url": [str(refused)]},
        ) from None
    if len(store.webhooks(battle_id)) >= MAX_PER_BATTLE:
        raise validation_problem(
            {"_schema": [f"A battle has at most {MAX_PER_BATTLE} webhooks; delete one first."]},
            "Nothing was registered.",
        )
    record = WebhookRecord(
        id="wh_" + secrets.token_hex(8),
        url=body["url"],
        types=tuple(body.get("types") or TYPES),
        language=body.get("language") or DEFAULT,
        secret=new_secret(),
        created_at=utc_now(),
    )
    progress = store.add_webhook(battle_id, record)
    record = dataclasses.replace(record, start_version=progress.cursor)  # as the store keeps it
    return {**webhook_view(record, progress), "secret": record.secret}


def webhook_view(record: WebhookRecord, progress: WebhookProgress | None) -> dict[str, Any]:
    """What is shown of a webhook: never its secrets."""
    progress = progress or WebhookProgress(cursor=0)
    return {
        "id": record.id,
        "url": record.url,
        "types": list(record.types),
        "language": record.language,
        "created_at": record.created_at,
        "start_version": record.start_version,
        "state": state_of(progress),
        "delivered_version": progress.cursor,
        "failing_since": progress.failing_since,
        "next_retry_at": progress.next_retry_at,
        "previous_secret_expires_at": overlap_until(record, now()),
    }


def state_of(progress: WebhookProgress) -> str:
    return "failed" if progress.failed else "retrying" if progress.failures else "active"


def overlap_until(record: WebhookRecord, moment: datetime) -> str | None:
    """Until when the secret before the last roll still signs, while it does."""
    until = record.previous_expires_at
    if record.previous_secret is None or until is None or parse_iso(until) <= moment:
        return None
    return until


def deliveries_view(store: Webhooks, battle_id: str, webhook_id: str, limit: int) -> dict[str, Any]:
    record = found(store, battle_id, webhook_id)
    attempts = store.delivery_attempts(battle_id, webhook_id, limit=limit)
    return {
        **webhook_view(record, store.webhook_progress(battle_id, webhook_id)),
        "attempts": [dataclasses.asdict(attempt) for attempt in attempts],
    }


def found(store: Webhooks, battle_id: str, webhook_id: str) -> WebhookRecord:
    record = store.webhook(battle_id, webhook_id)
    if record is None:
        raise no_such_webhook(battle_id, webhook_id)
    return record


def no_such_webhook(battle_id: str, webhook_id: str) -> Problem:
    return Problem(
        404, "webhook-not-found", "No such webhook", f"Battle {battle_id} has no webhook {webhook_id}."
    )
