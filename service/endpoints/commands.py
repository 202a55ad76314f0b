"""The commands route as documented: `POST /battles/{id}/commands`, its headers, answers and refusals; the
work is service/commands/submit.py's, the outcome the fold's, later."""

from __future__ import annotations

from flask import Response

from schemas.views import AcceptedSchema, OutcomeSchema
from service.access import auth
from service.access.battle_budgets import counted_in_append
from service.commands.submit import submit
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.openapi.command_bodies import command_body

blp = Blueprint(
    "commands", __name__, url_prefix="/battles", description="Commands: append to a battle's log."
)

HEADERS = [
    {
        "in": "header",
        "name": "Prefer",
        "schema": {"type": "string", "example": "wait=5"},
        "description": "wait up to N seconds (capped by the server) for the outcome",
    },
    {
        "in": "header",
        "name": "Idempotency-Key",
        "schema": {"type": "string", "maxLength": 255},
        "description": "the same key and body answer the original response and append nothing; "
        "another body is a 422, a repeat while the first is still being answered a 409 (kept 24 h)",
    },
    {
        "in": "header",
        "name": "Accept-Language",
        "schema": {"type": "string", "example": "fr, en;q=0.5"},
        "description": "the language of the outcome's summary with `Prefer: wait` (en, fr; default en)",
    },
    {
        "in": "header",
        "name": "If-Match",
        "schema": {"type": "string"},
        "description": "an ETag read from this battle, or its head version: 412 unless it names the head; "
        "`*` (RFC 9110: any current representation, which every battle has) checks nothing",
    },
]
LOCATION = {
    "Location": {"description": "the entry: /battles/{id}/events/{version}", "schema": {"type": "string"}}
}


@blp.route("/<battle_id>/commands", methods=["POST"])
@blp.access("command")
@auth.judged_again_by_append  # the append re-reads the token: the process may remember it
@counted_in_append  # its rate budget is counted by the append script, in the same round trip
@blp.json_body(command_body())  # its schema is the battle's ruleset's: `submit` reads it
@blp.doc(parameters=HEADERS)
@blp.response(202, AcceptedSchema, headers=LOCATION, description="appended; the outcome is pending")
@blp.alt_response(200, schema=OutcomeSchema, description="the outcome, when `Prefer: wait` was met")
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(409, response="CONFLICT")
@blp.alt_response(412, response="PRECONDITION_FAILED")
def send_command(battle_id: str) -> Response:
    """Append a command to the battle's log"""
    return submit(services(), battle_id)
