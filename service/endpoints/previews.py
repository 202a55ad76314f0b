"""The previews route as documented: `POST /battles/{id}/previews`, its body and refusals; the odds are
service/commands/preview.py's."""

from __future__ import annotations

from flask import Response

from schemas.previews import PreviewSchema
from service.commands.preview import preview_command
from service.commands.preview_memory import BYPASS, HIT, NOT_STORED, STORED
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.http.json_io import json_response, read_json
from service.openapi.command_bodies import command_body

blp = Blueprint(
    "previews", __name__, url_prefix="/battles", description="Previews: what-if odds, appending nothing."
)


CACHE_STATUS = {
    "Cache-Status": {
        "description": f"RFC 9211: `{HIT}` when this process answered the same preview of the same state "
        f"before (nothing decided again), `{STORED}` when decided now and kept, `{NOT_STORED}` when "
        f"decided now and too large to keep, `{BYPASS}` when SIEGE_PREVIEW_CACHE=0",
        "schema": {"type": "string"},
    }
}


@blp.route("/<battle_id>/previews", methods=["POST"])
@blp.access("command")
@blp.json_body(command_body())  # its schema is the battle's ruleset's: read below
@blp.response(
    200, PreviewSchema, headers=CACHE_STATUS, description="the distribution of the command's outcome"
)
@blp.alt_response(404, response="NOT_FOUND")
def create_preview(battle_id: str) -> Response:
    """Preview a command: its odds against the state at the head, exact or sampled; nothing is appended"""
    answer, cache_status = preview_command(services(), battle_id, read_json())
    return json_response(answer, 200, {"Cache-Status": cache_status})
