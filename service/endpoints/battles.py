"""`POST /battles` creates a battle (with the service key); `GET /battles/{id}` summarises it, tagged with the
chain head."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from flask import Response

from schemas.battles import BattleCreateSchema
from schemas.views import BattleCreatedSchema, BattleSummarySchema
from service.commands import creation
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.http.etags import etag, not_modified
from service.http.json_io import NO_STORE, NO_STORE_DOC, json_response
from service.reading.battle_view import battle_summary

blp = Blueprint(
    "battles", __name__, url_prefix="/battles", description="Battles: create one, read its summary."
)
LOCATION = {"Location": {"description": "the new battle", "schema": {"type": "string"}}}
ETAG = {
    "ETag": {
        "description": 'the chain head, `"<hash>"`, with `/p<n>` while the projection is at version n',
        "schema": {"type": "string"},
    }
}


@blp.route("", methods=["POST"])
@blp.access("create")
@blp.json_body(BattleCreateSchema)
@blp.response(201, BattleCreatedSchema, headers={**LOCATION, **NO_STORE_DOC})
def create_battle(body: dict[str, Any]) -> Response:
    """Create a battle; the answer holds its GM token, shown this once"""
    created = creation.create_battle(services(), body)
    return json_response(asdict(created), 201, {"Location": f"/battles/{created.id}", **NO_STORE})


@blp.route("/<battle:battle_id>", methods=["GET"])
@blp.access("read")
@blp.response(200, BattleSummarySchema, headers=ETAG)
@blp.alt_response(304, response="NOT_MODIFIED")
@blp.alt_response(404, response="NOT_FOUND")
def read_battle(battle_id: str) -> Response:
    """Summarise a battle: ruleset, options, log head and projected version"""
    deps = services()
    created = deps.battles.created(battle_id)
    body = battle_summary(deps, battle_id, created, deps.store.head(battle_id))
    projected = body["projected_version"]
    tag = etag(body["head_hash"], None if projected == body["version"] else f"p{projected}")
    return not_modified(tag) or json_response(body, 200, {"ETag": tag})
