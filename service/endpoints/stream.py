"""`GET /battles/{id}/stream` (Server-Sent Events) and `POST /battles/{id}/stream-tickets`."""

from __future__ import annotations

from flask import Response
from marshmallow import EXCLUDE, RAISE

from schemas.streams import StreamHeadersSchema, StreamQuerySchema, StreamTicketSchema
from service.access import auth
from service.access.tickets import mint_ticket
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.http.json_io import NO_STORE, NO_STORE_DOC, json_response, language
from service.streams.sse import EVENT_STREAM, RETRY_MS, open_stream

blp = Blueprint("stream", __name__, url_prefix="/battles", description="Live outcomes: an SSE stream.")
FORMAT = (
    f"`retry: {RETRY_MS}`, then one event per outcome in version order: `id: <version>`, `event: outcome`, "
    "`data: <the outcome as GET .../events/{v} serves it, one line of JSON>`; `: keep-alive` comments "
    'while idle; after an applied `conclude`, `event: end` with `data: {"version": v, "reason": '
    '"concluded"}`, and the stream closes; once the token it was opened with (for a ticket, the one '
    "that minted it) is revoked or expires, within a heartbeat interval, `event: end` with `data: "
    '{"reason": "token_revoked"}` (or `"token_expired"`), and it closes. An outcome hidden from the '
    "stream's token (a hidden order, EP-ORDER-05) is sent hidden, as `GET .../events/{v}` serves it, and "
    "not sent again once revealed: read `GET .../events/{v}` after the reveal."
)
STREAM_CONTENT = {EVENT_STREAM: {"schema": {"type": "string", "description": FORMAT}}}


@blp.route("/<battle_id>/stream", methods=["GET"])
@blp.access("stream")
@blp.arguments(StreamQuerySchema, location="query", as_kwargs=True, unknown=RAISE)
@blp.arguments(StreamHeadersSchema, location="headers", as_kwargs=True, unknown=EXCLUDE)
@blp.doc(responses={200: {"description": "the stream (text/event-stream)", "content": STREAM_CONTENT}})
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def open_battle_stream(
    battle_id: str,
    after: int | None = None,
    lang: str | None = None,
    last_event_id: int | None = None,
    **_documented: str,  # the ticket (read by service/access/auth.py) and Accept-Language
) -> Response:
    """Follow the battle's outcomes live (Server-Sent Events)"""
    start = last_event_id if last_event_id is not None else after  # what a reconnecting EventSource sends
    token_digest = auth.current().digest
    assert token_digest is not None, "a battle token or its ticket opened it"
    return open_stream(services(), battle_id, start, lang or language(), token_digest, auth.reader())


@blp.route("/<battle_id>/stream-tickets", methods=["POST"])
@blp.access("read")
@blp.response(
    201,
    StreamTicketSchema,
    headers=NO_STORE_DOC,
    description="a single-use ticket for `GET .../stream?ticket=`",
)
@blp.alt_response(404, response="NOT_FOUND")
def mint_stream_ticket(battle_id: str) -> Response:
    """Mint a single-use ticket that opens one stream (an EventSource cannot send Authorization)"""
    deps = services()
    ticket = mint_ticket(deps, battle_id, auth.current())
    body = {"ticket": ticket, "expires_in": deps.config.stream_ticket_ttl_s}
    return json_response(body, 201, NO_STORE)
