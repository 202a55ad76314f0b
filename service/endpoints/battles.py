"""`POST /battles` creates a battle; `GET /battles/{id}` summarises it, with the chain head as ETag."""

from __future__ import annotations

from dataclasses import asdict

from flask import Response, request

from schemas.battles import BattleCreateSchema
from schemas.views import BattleCreatedSchema, BattleSummarySchema
from service.battle_view import battle_summary
from service.creation import create_battle
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.httpio import entity_tags, json_response, quoted, read_json

blp = Blueprint(
    "battles", __name__, url_prefix="/battles", description="Battles: create one, read its summary."
)
_create_schema = BattleCreateSchema()
LOCATION = {"Location": {"description": "the new battle", "schema": {"type": "string"}}}
ETAG = {"ETag": {"description": "the chain head hash", "schema": {"type": "string"}}}


@blp.route("", methods=["POST"])
@blp.doc(requestBody={"required": True, "content": {"application/json": {"schema": BattleCreateSchema}}})
@blp.response(201, BattleCreatedSchema, headers=LOCATION)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.alt_response(400, response="BAD_REQUEST")
@blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
def create() -> Response:
    """Create a battle"""
    created = create_battle(services(), _create_schema.load(read_json()))
    return json_response(asdict(created), 201, {"Location": f"/battles/{created.id}"})


@blp.route("/<battle_id>", methods=["GET"])
@blp.response(200, BattleSummarySchema, headers=ETAG)
@blp.alt_response(304, response="NOT_MODIFIED")
@blp.alt_response(404, response="NOT_FOUND")
def summary(battle_id: str) -> Response:
    """Summarise a battle: ruleset, options, log head and projected version"""
    deps = services()
    created = deps.battles.created(battle_id)
    head = deps.store.head(battle_id)
    headers = {"ETag": quoted(head.hash)}
    if head.hash in (entity_tags(request.headers.get("If-None-Match")) or ()):
        return Response(status=304, headers=headers)
    return json_response(battle_summary(deps, battle_id, created, head), 200, headers)
