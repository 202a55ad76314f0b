"""One outcome as a webhook request body and headers: a CloudEvents 1.0 event in structured JSON mode (the
`cloudevents` SDK), signed per Standard Webhooks (the `standardwebhooks` package)."""

from __future__ import annotations

import secrets
from base64 import b64encode
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from cloudevents.core.bindings.http import to_structured
from cloudevents.core.formats.json import JSONFormat
from cloudevents.core.v1.event import CloudEvent
from standardwebhooks import Webhook

APPLIED, REJECTED = "siege.outcome.applied", "siege.outcome.rejected"
TYPES = (APPLIED, REJECTED)  # the outcomes' types, which a webhook may ask for
TEST_TYPE = "siege.webhook.test"  # sent when the GM asks (POST .../test), to every webhook whatever its types
EVENT_TYPES = (*TYPES, TEST_TYPE)
SECRET_PREFIX = "whsec_"
DATA_CONTENT_TYPE = "application/json"
CONTENT_TYPE = "application/cloudevents+json"  # the structured mode's, as `to_structured` gives it
# the Standard Webhooks headers of every delivery
ID_HEADER, TIMESTAMP_HEADER, SIGNATURE_HEADER = "webhook-id", "webhook-timestamp", "webhook-signature"
# `webhook-signature`: one `v1,<base64 HMAC-SHA256>` per secret, space-separated (two during a roll's overlap)
SIGNATURE_PATTERN = r"^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)*$"
# the lines of a webhook's deliveries log: what was POSTed, then the changes to it that sent nothing
OUTCOME, REDELIVERY, TEST = "outcome", "redelivery", "test"
SECRET_ROLLED, SECRET_DROPPED, RECOVERED = "secret_rolled", "secret_dropped", "recovered"
SENT_KINDS = (OUTCOME, REDELIVERY, TEST)
LOG_KINDS = (*SENT_KINDS, SECRET_ROLLED, SECRET_DROPPED, RECOVERED)
_FORMAT = JSONFormat()


@dataclass(frozen=True, slots=True, kw_only=True)
class Message:
    """What is posted: the same `id` and body on every attempt (receivers dedupe by `webhook-id`)."""

    id: str
    body: bytes
    headers: dict[str, str]


def new_secret() -> str:
    """`whsec_` and 24 random bytes in base64, the form the Standard Webhooks libraries read."""
    return SECRET_PREFIX + b64encode(secrets.token_bytes(24)).decode("ascii")


def event_type(outcome: dict[str, Any]) -> str:
    return REJECTED if outcome.get("status") == "rejected" else APPLIED


def message_id(battle_id: str, version: int) -> str:
    """Unique per battle and version, so it is the CloudEvent `id` and the `webhook-id` alike."""
    return f"{battle_id}:{version}"


def probe_id(battle_id: str) -> str:
    """A test event's `id`: never a version's, so a receiver's dedupe never mistakes it for an outcome."""
    return f"{battle_id}:test:{secrets.token_hex(8)}"


def body(source: str, battle_id: str, outcome: dict[str, Any], recorded_at: str) -> tuple[str, bytes, str]:
    """`(id, body, content type)` of the event telling `outcome` (as `GET .../events/{v}` serves it); its
    `time` is when the command was recorded, so a retry posts the very same bytes."""
    version = int(outcome["version"])
    attributes: dict[str, Any] = {
        "specversion": "1.0",
        "id": message_id(battle_id, version),
        "source": source,
        "type": event_type(outcome),
        "subject": str(version),
        "datacontenttype": DATA_CONTENT_TYPE,
    }
    moment = _moment(recorded_at)
    if moment is not None:
        attributes["time"] = moment
    return _structured(attributes, outcome)


def probe_body(
    source: str, event_id: str, battle_id: str, webhook_id: str, requested_at: str
) -> tuple[str, bytes, str]:
    """`(id, body, content type)` of a test event: the envelope of every delivery, `data` naming the battle
    and the webhook, `time` when the GM asked for it; it tells no outcome, so it has no `subject`."""
    attributes: dict[str, Any] = {
        "specversion": "1.0",
        "id": event_id,
        "source": source,
        "type": TEST_TYPE,
        "datacontenttype": DATA_CONTENT_TYPE,
    }
    moment = _moment(requested_at)
    if moment is not None:
        attributes["time"] = moment
    return _structured(attributes, {"battle_id": battle_id, "webhook_id": webhook_id})


def signed(keys: tuple[str, ...], event_id: str, payload: bytes, content_type: str, now: datetime) -> Message:
    """The headers of one attempt: `webhook-timestamp` is the attempt's, so each retry is signed anew. One
    signature per secret, space-separated as Standard Webhooks lists them (the newest secret first): a
    receiver verifying with any one of them accepts the delivery."""
    moment = now.astimezone(UTC)
    text = payload.decode("utf-8")
    signature = " ".join(Webhook(secret).sign(event_id, moment, text) for secret in keys)
    headers = {
        "content-type": content_type,
        ID_HEADER: event_id,
        TIMESTAMP_HEADER: str(int(moment.timestamp())),
        SIGNATURE_HEADER: signature,
    }
    return Message(id=event_id, body=payload, headers=headers)


def _structured(attributes: dict[str, Any], data: dict[str, Any]) -> tuple[str, bytes, str]:
    structured = to_structured(CloudEvent(attributes, data), _FORMAT)
    return str(attributes["id"]), structured.body, structured.headers["content-type"]


def _moment(recorded_at: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(recorded_at)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
