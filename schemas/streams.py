"""The wire shapes of live streams: the stream's query and a stream ticket."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields, validate

from schemas.base import StrictSchema, cursor
from schemas.views import ViewSchema
from summaries.catalogs import LANGUAGES


class StreamQuerySchema(StrictSchema):
    after = cursor(
        metadata={"description": "send the outcomes after this version (default: the projected head)"},
    )
    lang = fields.String(
        validate=validate.OneOf(LANGUAGES),
        metadata={"description": "the summaries' language; default Accept-Language, else en"},
    )
    ticket = fields.String(
        validate=validate.Length(min=1, max=256),
        metadata={"description": "a ticket from POST .../stream-tickets, instead of Authorization"},
    )


class StreamHeadersSchema(Schema):
    class Meta:
        unknown = EXCLUDE  # every other header

    last_event_id = cursor(
        data_key="Last-Event-ID",
        metadata={
            "description": "resume after this version (what an EventSource sends when it reconnects by "
            "itself); wins over `after`"
        },
    )
    accept_language = fields.String(
        data_key="Accept-Language",
        metadata={"description": "the summaries' language when `lang` is not given (en, fr; default en)"},
    )


class StreamTicketSchema(ViewSchema):
    ticket = fields.String(required=True, metadata={"description": "opens one stream, shown once"})
    expires_in = fields.Integer(required=True, metadata={"description": "seconds it stays valid (≤ 60)"})
