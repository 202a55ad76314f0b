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
TYPES = (APPLIED, REJECTED)
SECRET_PREFIX = "whsec_"
DATA_CONTENT_TYPE = "application/json"
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
    structured = to_structured(CloudEvent(attributes, outcome), _FORMAT)
    return attributes["id"], structured.body, structured.headers["content-type"]


def signed(secret: str, event_id: str, payload: bytes, content_type: str, now: datetime) -> Message:
    """The headers of one attempt: `webhook-timestamp` is the attempt's, so each retry is signed anew."""
    moment = now.astimezone(UTC)
    signature = Webhook(secret).sign(event_id, moment, payload.decode("utf-8"))
    headers = {
        "content-type": content_type,
        "webhook-id": event_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": signature,
    }
    return Message(id=event_id, body=payload, headers=headers)


def _moment(recorded_at: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(recorded_at)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
