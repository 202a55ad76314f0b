"""The stored JSON of webhook registrations, progress and attempts, the same for every Redis backend."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from eventstore.canonical import canonical_json
from eventstore.records import DeliveryAttempt, RequestRecord, WebhookProgress, WebhookRecord
from eventstore.stream_fields import text


def dumps(record: WebhookRecord | WebhookProgress | DeliveryAttempt) -> str:
    return canonical_json(dataclasses.asdict(record))


def webhook_from(raw: Any) -> WebhookRecord:
    found = json.loads(text(raw))
    return WebhookRecord(**{**found, "types": tuple(found["types"])})


def progress_from(raw: Any) -> WebhookProgress:
    return WebhookProgress(**json.loads(text(raw)))


def attempt_from(raw: Any) -> DeliveryAttempt:
    return DeliveryAttempt(**json.loads(text(raw)))


def request_from(raw: Any) -> RequestRecord:
    """`<fingerprint>` while the first request is in flight, `<fingerprint> <answer>` once it answered."""
    fingerprint, _, answer = text(raw).partition(" ")
    return RequestRecord(fingerprint=fingerprint, answer=answer if answer else None)
