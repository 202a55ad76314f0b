"""The shape of one exported line, a CloudEvents 1.0 event, for the OpenAPI description of the export."""

from __future__ import annotations

from marshmallow import fields

from schemas.views import EventSchema, ViewSchema


class ExportedEventSchema(ViewSchema):
    """One line of `GET /battles/{id}/export` (JSON Lines): a log entry and its outcome as a CloudEvent."""

    specversion = fields.String(required=True, metadata={"example": "1.0"})
    id = fields.String(required=True, metadata={"description": "the entry's chain hash"})
    source = fields.String(required=True, metadata={"description": "the battle's URI, `/battles/{id}`"})
    type = fields.String(required=True, metadata={"description": "`siege.command.<command type>`"})
    time = fields.String(required=True, metadata={"description": "the entry's `recorded_at`"})
    sequence = fields.String(required=True, metadata={"description": "the entry's version, in decimal"})
    datacontenttype = fields.String(required=True, metadata={"example": "application/json"})
    data = fields.Nested(
        EventSchema, required=True, metadata={"description": "the entry as stored, with its outcome"}
    )
