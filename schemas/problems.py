"""The one error body (RFC 9457 problem details) every 4xx and 5xx answer carries."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields


class ProblemSchema(Schema):
    """RFC 9457: extension members beyond these may appear."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, metadata={"description": "stable URI naming the kind of problem"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String()
    instance = fields.String()
    errors = fields.Dict(metadata={"description": "validation problems: the offending fields and why"})
    current_version = fields.Integer(metadata={"description": "412: the battle's current head version"})
    version = fields.Integer(metadata={"description": "idempotency-key-reused: the version the key answered"})
    checks = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "not-ready (GET /readyz): each dependency, `ok` or `unavailable`"},
    )
