"""`GET /battles/{id}/stream` (Server-Sent Events) and `POST /battles/{id}/stream-tickets`."""

from __future__ import annotations

from flask import Response
from marshmallow import RAISE

from schemas.streams import StreamQuerySchema, StreamTicketSchema
from service import auth
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.httpio import json_response
from service.messages import language
from service.streaming import EVENT_STREAM, RETRY_MS, open_stream, resume_point
from service.tickets import mint_ticket

blp = Blueprint("stream", __name__, url_prefix="/battles", description="Live outcomes: an SSE stream.")
FORMAT = (
    f"`retry: {RETRY_MS}`, then one event per outcome in version order: `id: <version>`, `event: outcome`, "
    "`data: <the outcome as GET .../events/{v} serves it, one line of JSON>`; `: keep-alive` comments "
    'while idle; after an applied `conclude`, `event: end` with `data: {"version": v, "reason": '
    '"concluded"}`, and the stream closes.'
)
STREAM_CONTENT = {EVENT_STREAM: {"schema": {"type": "string", "description": FORMAT}}}
HEADERS = [
    {
        "in": "header",
        "name": "Last-Event-ID",
        "schema": {"type": "integer", "minimum": 0},
        "description": "resume after this version (what an EventSource sends when it reconnects); "
        "wins over `after`",
    },
    {
        "in": "header",
        "name": "Accept-Language",
        "schema": {"type": "string", "example": "fr"},
        "description": "the summaries' language when `lang` is not given (en, fr; default en)",
    },
]


@blp.route("/<battle_id>/stream", methods=["GET"])
@blp.access("stream")
@blp.arguments(StreamQuerySchema, location="query", as_kwargs=True, unknown=RAISE)
@blp.doc(
    parameters=HEADERS,
    responses={200: {"description": "the stream (text/event-stream)", "content": STREAM_CONTENT}},
)
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def open_battle_stream(
    battle_id: str, after: int | None = None, lang: str | None = None, ticket: str | None = None
) -> Response:
    """Follow the battle's outcomes live (Server-Sent Events)"""
    return open_stream(services(), battle_id, resume_point(after), lang or language())


@blp.route("/<battle_id>/stream-tickets", methods=["POST"])
@blp.access("read")
@blp.response(201, StreamTicketSchema, description="a single-use ticket for `GET .../stream?ticket=`")
@blp.alt_response(404, response="NOT_FOUND")
def mint_stream_ticket(battle_id: str) -> Response:
    """Mint a single-use ticket that opens one stream (an EventSource cannot send Authorization)"""
    deps = services()
    ticket = mint_ticket(deps, battle_id, auth.current())
    body = {"ticket": ticket, "expires_in": deps.config.stream_ticket_ttl_s}
    return json_response(body, 201, {"Cache-Control": "no-store"})
