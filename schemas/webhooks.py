"""Webhooks on the wire: what a GM registers, what is shown of a webhook, and its delivery attempts."""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate

from schemas.base import StrictBoolean, StrictSchema, Unique, integer
from schemas.views import ViewSchema
from summaries.catalogs import DEFAULT, LANGUAGES
from webhooks.event import LOG_KINDS, SENT_KINDS, TYPES
from webhooks.guard import MAX_URL_CHARS, Refused, split

STATES = ("active", "retrying", "failed")
DEFAULT_OVERLAP_S = 24 * 3600  # how long the secret before a roll still signs, unless the roll says
MAX_OVERLAP_S = 7 * 24 * 3600


def url_form(value: str) -> None:
    """http or https, at most 2,048 characters, a host, no credentials: said in the 422's `errors.url`."""
    try:
        split(value)
    except Refused as refused:
        raise ValidationError(str(refused)) from None


class WebhookCreateSchema(StrictSchema):
    url = fields.String(
        required=True,
        validate=url_form,
        metadata={
            "description": f"http or https, at most {MAX_URL_CHARS} characters; its host may not resolve to "
            "a loopback, private, link-local, reserved, multicast or unspecified address (unless "
            "SIEGE_WEBHOOK_ALLOW lets it through)",
            "example": "https://hooks.example/siege",
            "maxLength": MAX_URL_CHARS,
        },
    )
    types = fields.List(
        fields.String(validate=validate.OneOf(TYPES)),
        validate=[validate.Length(min=1), Unique()],
        metadata={"description": "the CloudEvent types to deliver; omitted: both", "example": list(TYPES)},
    )
    language = fields.String(
        validate=validate.OneOf(LANGUAGES),
        metadata={"description": f"the language of the summaries; omitted: {DEFAULT}"},
    )


class WebhookSchema(ViewSchema):
    id = fields.String(required=True)
    url = fields.String(required=True)
    types = fields.List(fields.String(), required=True)
    language = fields.String(required=True)
    created_at = fields.String(required=True)
    state = fields.String(
        required=True,
        validate=validate.OneOf(STATES),
        metadata={
            "description": "`active`; `retrying` while attempts fail (see next_retry_at); `failed` once they "
            "failed for the whole retry horizon (SIEGE_WEBHOOK_RETRY_FOR_S): nothing more is sent until "
            "`POST .../recover`"
        },
    )
    start_version = fields.Integer(
        required=True,
        metadata={
            "description": "the version projected at registration: delivery began after it, and a recovery "
            "goes back before it only when told `before_registration`"
        },
    )
    delivered_version = fields.Integer(
        required=True, metadata={"description": "the last version delivered (or not asked for by `types`)"}
    )
    failing_since = fields.String(allow_none=True, required=True)
    next_retry_at = fields.String(allow_none=True, required=True)
    previous_secret_expires_at = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "after a roll, until when the secret before it still signs every delivery too "
            "(a second signature in `webhook-signature`); null when only the current secret signs"
        },
    )


class WebhookCreatedSchema(WebhookSchema):
    secret = fields.String(
        required=True,
        metadata={"description": "`whsec_…`, the Standard Webhooks signing secret, shown this once"},
    )


class SecretRollSchema(StrictSchema):
    overlap_s = integer(
        validate=validate.Range(min=0, max=MAX_OVERLAP_S),
        metadata={
            "description": "how long the secret before the roll still signs every delivery beside the new "
            f"one, in seconds (at most {MAX_OVERLAP_S}, 7 days); 0 drops every earlier secret at once (a "
            "leaked one)",
            "default": DEFAULT_OVERLAP_S,
        },
    )


class RecoverSchema(StrictSchema):
    from_version = integer(
        validate=validate.Range(min=1),
        metadata={
            "description": "the first version to send again (omitted: where the cursor is); after "
            "`start_version` unless `before_registration`, at most the head's version and one"
        },
    )
    before_registration = StrictBoolean(
        metadata={
            "description": "true: `from_version` may be at or before `start_version` (1: the battle's "
            "whole log)",
            "default": False,
        }
    )


class EmptySchema(StrictSchema):
    """A body that may be left out, or be `{}`: these operations take no fields."""


class WebhookSendSchema(ViewSchema):
    kind = fields.String(required=True, validate=validate.OneOf(("test", "redelivery")))
    event_id = fields.String(
        required=True,
        metadata={
            "description": "the CloudEvent `id` and `webhook-id` to be sent: `<battle>:test:<hex>` for a "
            "test event, the outcome's own `<battle>:<version>` for a redelivery (as when first delivered)"
        },
    )
    version = fields.Integer(allow_none=True, required=True, metadata={"description": "null for a test"})
    requested_at = fields.String(required=True)
    job_id = fields.String(required=True, metadata={"description": "the webhook worker's job that sends it"})


class DeliveryAttemptSchema(ViewSchema):
    at = fields.String(required=True)
    kind = fields.String(
        required=True,
        validate=validate.OneOf(LOG_KINDS),
        metadata={"description": f"POSTs: {', '.join(f'`{k}`' for k in SENT_KINDS)} (an outcome in order, "
                  "one sent again on request, a test event); changes that sent nothing: `secret_rolled`, "
                  "`secret_dropped` (a roll's overlap ended), `recovered`"},
    )  # fmt: skip
    version = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "the outcome's; for `recovered`, the first version sent again; else null"},
    )
    status = fields.String(
        allow_none=True,
        required=True,
        validate=validate.OneOf(("delivered", "failed", "refused")),
        metadata={"description": "`delivered` (a 2xx); `failed` (another answer, a timeout, a reset); "
                  "`refused` (the host resolved to an address webhooks may not reach); null when nothing "
                  "was sent"},
    )  # fmt: skip
    code = fields.Integer(allow_none=True, required=True, metadata={"description": "the answer's status"})
    duration_ms = fields.Float(required=True)
    error = fields.String(allow_none=True, required=True)
    next_retry_at = fields.String(allow_none=True, required=True)
    event_id = fields.String(
        allow_none=True, required=True, metadata={"description": "the `webhook-id` sent; null if none"}
    )
    note = fields.String(
        allow_none=True, required=True, metadata={"description": "what a change to the webhook did"}
    )


class WebhookDeliveriesSchema(WebhookSchema):
    attempts = fields.List(
        fields.Nested(DeliveryAttemptSchema),
        required=True,
        metadata={"description": "the latest attempts, newest first"},
    )


class DeliveriesQuerySchema(StrictSchema):
    limit = fields.Integer(validate=validate.Range(min=1, max=100), metadata={"default": 50})
