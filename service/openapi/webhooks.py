"""The OpenAPI 3.1 `webhooks` object: for each event type a receiver may be sent, the request it gets (the
CloudEvent envelope with its `data`, the three Standard Webhooks headers) and what its answer means. Built
from the constants the webhook worker sends with (webhooks/event.py), so the contract cannot drift."""

from __future__ import annotations

from typing import Any

from apispec import APISpec

from schemas.views import OutcomeSchema
from webhooks import event

REF = "#/components/schemas/"
ENVELOPE = "CloudEvent"
TEST_DATA = "WebhookTestData"
# type → (component, operationId, summary, what `data` is)
EVENTS: dict[str, tuple[str, str, str, dict[str, Any]]] = {
    event.APPLIED: (
        "OutcomeAppliedEvent",
        "receiveOutcomeApplied",
        "An outcome was applied",
        {"$ref": REF + "Outcome", "description": "the outcome as `GET .../events/{v}` serves it: `applied`"},
    ),
    event.REJECTED: (
        "OutcomeRejectedEvent",
        "receiveOutcomeRejected",
        "An outcome was rejected",
        {"$ref": REF + "Outcome", "description": "the outcome as `GET .../events/{v}` serves it: `rejected`"},
    ),
    event.TEST_TYPE: (
        "WebhookTestEvent",
        "receiveWebhookTest",
        "A test event the GM asked for",
        {"$ref": REF + TEST_DATA},
    ),
}
HEADERS = (
    (
        event.ID_HEADER,
        "the event's `id`: the same on every retry and redelivery of one outcome; dedupe on it",
        {"type": "string", "minLength": 1},
    ),
    (
        event.TIMESTAMP_HEADER,
        "this attempt's Unix time in seconds, signed with the body: refuse one more than 5 minutes off",
        {"type": "string", "pattern": "^[0-9]+$"},
    ),
    (
        event.SIGNATURE_HEADER,
        '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` keyed with the secret\'s '
        "bytes, one per secret, space-separated: two during a roll's overlap (the new secret's first). "
        "Accept the delivery when any one verifies",
        {"type": "string", "pattern": event.SIGNATURE_PATTERN},
    ),
)
ANSWERS = {
    "2XX": {
        "description": "received, within SIEGE_WEBHOOK_TIMEOUT_S; for an outcome, the webhook's cursor "
        "moves past it"
    },
    "default": {
        "description": "any other answer, a redirect, a timeout or a reset: an outcome is retried with "
        "backoff until SIEGE_WEBHOOK_RETRY_FOR_S has passed; a test event or a redelivery is logged as "
        "`failed` and not retried"
    },
}


def register_webhooks(spec: APISpec) -> None:
    """The components and the `webhooks` object; call once the endpoints are registered (they name
    `Outcome`)."""
    if "Outcome" not in spec.components.schemas:
        spec.components.schema("Outcome", schema=OutcomeSchema)
    spec.components.schema(ENVELOPE, envelope())
    spec.components.schema(TEST_DATA, probe_data())
    for kind, (component, _, _, data) in EVENTS.items():
        spec.components.schema(component, typed(kind, data))
    spec.options["webhooks"] = {kind: {"post": operation(kind)} for kind in EVENTS}


def envelope() -> dict[str, Any]:
    """What every delivery posts: a CloudEvents 1.0 event in structured JSON mode."""
    return {
        "description": "A CloudEvents 1.0 event in structured JSON mode (`Content-Type: "
        f"{event.CONTENT_TYPE}`), the body of every delivery; each event type's component is this with its "
        "`type` and `data`.",
        "type": "object",
        "required": ["specversion", "id", "source", "type", "datacontenttype", "data"],
        "properties": {
            "specversion": {"type": "string", "const": "1.0"},
            "id": {
                "type": "string",
                "description": "`<battle>:<version>` for an outcome, `<battle>:test:<hex>` for a test "
                "event; also the `webhook-id` header",
            },
            "source": {
                "type": "string",
                "format": "uri-reference",
                "description": "the battle's URL: SIEGE_PUBLIC_URL + `/battles/{id}` (unset: the reference "
                "`/battles/{id}`)",
            },
            "type": {
                "type": "string",
                "description": "one of " + ", ".join(f"`{kind}`" for kind in event.EVENT_TYPES),
            },
            "subject": {"type": "string", "description": "an outcome's version"},
            "time": {
                "type": "string",
                "format": "date-time",
                "description": "when the command was recorded (a test event: when it was asked for)",
            },
            "datacontenttype": {"type": "string", "const": event.DATA_CONTENT_TYPE},
            "data": {},
        },
    }


def probe_data() -> dict[str, Any]:
    return {
        "description": f"The `data` of a `{event.TEST_TYPE}` event: it tells no outcome.",
        "type": "object",
        "required": ["battle_id", "webhook_id"],
        "properties": {"battle_id": {"type": "string"}, "webhook_id": {"type": "string"}},
    }


def typed(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The envelope of one type, whole (generators merge no property defined twice in an `allOf`): its
    `type`, its `data`, and for an outcome the version as `subject`."""
    base = envelope()
    outcome = kind in event.TYPES
    properties: dict[str, Any] = {
        **base["properties"],
        "type": {"type": "string", "const": kind},
        "data": data,
    }
    if outcome:
        properties["subject"] = {"type": "string", "pattern": "^[1-9][0-9]*$", "description": "the version"}
    else:
        del properties["subject"]
    return {
        "description": f"A `{kind}` delivery: a CloudEvent (`{ENVELOPE}`).",
        "type": "object",
        "required": [*base["required"], *(["subject"] if outcome else []), "time"],
        "properties": properties,
    }


def operation(kind: str) -> dict[str, Any]:
    component, operation_id, summary, _ = EVENTS[kind]
    told = (
        "Sent to a webhook that asked for this type, for every outcome after its registration, in version "
        "order, at least once."
        if kind in event.TYPES
        else "Sent to any webhook when the GM asks (`POST /battles/{id}/webhooks/{wid}/test`), signed like "
        "every delivery; it never moves the webhook's cursor."
    )
    return {
        "operationId": operation_id,
        "summary": summary,
        "description": f"{told} Verify `webhook-signature` (Standard Webhooks) over the body as received.",
        "tags": ["webhooks"],
        "parameters": [
            {"in": "header", "name": name, "required": True, "description": description, "schema": schema}
            for name, description, schema in HEADERS
        ],
        "requestBody": {
            "required": True,
            "content": {event.CONTENT_TYPE: {"schema": {"$ref": REF + component}}},
        },
        "responses": ANSWERS,
    }
