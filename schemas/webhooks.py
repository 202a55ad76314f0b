"""Webhooks on the wire: what a GM registers, what is shown of a webhook, and its delivery attempts."""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate

from schemas.base import StrictSchema, Unique
from schemas.views import ViewSchema
from summaries.catalogs import DEFAULT, LANGUAGES
from webhooks.event import TYPES
from webhooks.guard import MAX_URL_CHARS, Refused, split

STATES = ("active", "retrying", "failed")


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
            "failed for the whole retry horizon: nothing more is sent (delete it and register again)"
        },
    )
    delivered_version = fields.Integer(
        required=True, metadata={"description": "the last version delivered (or not asked for by `types`)"}
    )
    failing_since = fields.String(allow_none=True, required=True)
    next_retry_at = fields.String(allow_none=True, required=True)


class WebhookCreatedSchema(WebhookSchema):
    secret = fields.String(
        required=True,
        metadata={"description": "`whsec_…`, the Standard Webhooks signing secret, shown this once"},
    )


class DeliveryAttemptSchema(ViewSchema):
    at = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(
        required=True,
        validate=validate.OneOf(("delivered", "failed", "refused")),
        metadata={"description": "`delivered` (a 2xx); `failed` (another answer, a timeout, a reset); "
                  "`refused` (the host resolved to an address webhooks may not reach)"},
    )  # fmt: skip
    code = fields.Integer(allow_none=True, required=True, metadata={"description": "the answer's status"})
    duration_ms = fields.Float(required=True)
    error = fields.String(allow_none=True, required=True)
    next_retry_at = fields.String(allow_none=True, required=True)


class WebhookDeliveriesSchema(WebhookSchema):
    attempts = fields.List(
        fields.Nested(DeliveryAttemptSchema),
        required=True,
        metadata={"description": "the latest attempts, newest first"},
    )


class DeliveriesQuerySchema(StrictSchema):
    limit = fields.Integer(validate=validate.Range(min=1, max=100), metadata={"default": 50})
