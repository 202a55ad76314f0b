"""`GET /battles/{id}/export` streams a battle as JSON Lines of CloudEvents; `POST /battles/import` recreates
one from such a file once it verifies."""

from __future__ import annotations

from dataclasses import asdict

from flask import Response, request

from replay.export import export_lines
from replay.export_format import MEDIA_TYPE
from schemas.export import ExportedEventSchema
from schemas.views import BattleCreatedSchema
from service.access import auth
from service.commands.importing import import_export
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.http.etags import etag
from service.http.json_io import NO_STORE, NO_STORE_DOC, json_response
from service.http.problems import Problem

blp = Blueprint(
    "export",
    __name__,
    url_prefix="/battles",
    description="Export and import: a battle as a file that proves itself.",
)
IMPORT_TYPES = frozenset({MEDIA_TYPE, "application/jsonl", "application/x-jsonlines"})
LINES = {MEDIA_TYPE: {"schema": ExportedEventSchema}}
EXPORTED = {
    "description": "one CloudEvents 1.0 event a line, versions 1 to the head, each with its outcome",
    "content": LINES,
    "headers": {"ETag": {"description": "the chain head the export ends at", "schema": {"type": "string"}}},
}
LOCATION = {"Location": {"description": "the new battle", "schema": {"type": "string"}}}


@blp.route("/<battle_id>/export", methods=["GET"])
@blp.access("read")
@blp.doc(responses={"200": EXPORTED})
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(409, response="CONFLICT", description="orders are hidden from this token until revealed")
def export_battle(battle_id: str) -> Response:
    """Export the battle as JSON Lines, one CloudEvent per version, streamed"""
    deps = services()
    store = deps.store
    sight = deps.reveals.sight(store, battle_id, deps.battles.ruleset_of(battle_id), auth.reader())
    if sight.withheld():  # an export is whole: only once nothing in it is hidden from the token
        raise Problem(
            409,
            "orders-hidden",
            "Orders are hidden from this token",
            "An export holds every entry whole, and this battle holds orders hidden from this token until "
            "they are revealed (an `advance_phase` out of the orders phase, or `conclude`). Export again "
            "after the reveal, or with a GM token.",
        )
    head = store.head(battle_id)
    headers = {
        "ETag": etag(head.hash),
        "Content-Disposition": f'attachment; filename="battle-{battle_id}.jsonl"',
    }
    return Response(export_lines(store, battle_id, upto=head.version), 200, headers, mimetype=MEDIA_TYPE)


@blp.route("/import", methods=["POST"])
@blp.access("create")
@blp.doc(requestBody={"required": True, "content": LINES})
@blp.response(201, BattleCreatedSchema, headers={**LOCATION, **NO_STORE_DOC})
@blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")
@blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def import_battle() -> Response:
    """Import an export as a new battle once it verifies and holds only input the API takes; the answer holds
    its GM token, shown this once"""
    deps = services()
    if request.mimetype not in IMPORT_TYPES:
        raise Problem(415, "unsupported-media-type", "The request body must be application/x-ndjson")
    request.max_content_length = deps.config.import_max_bytes  # its own cap, far above a command's
    created = import_export(deps, request.stream)
    return json_response(asdict(created), 201, {"Location": f"/battles/{created.id}", **NO_STORE})
