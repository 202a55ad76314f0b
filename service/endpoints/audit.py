"""A battle's audit over HTTP (`GET /battles/{id}/audit`): a read token asks, the report comes as JSON."""

from __future__ import annotations

from flask import Response

from replay.audit import audit
from schemas.audit import AuditSchema
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.http.json_io import json_response

blp = Blueprint("audit", __name__, url_prefix="/battles", description="Audit: verify a battle end to end.")


@blp.route("/<battle_id>/audit", methods=["GET"])
@blp.access("read")
@blp.response(200, AuditSchema)
@blp.alt_response(404, response="NOT_FOUND")
def read_audit(battle_id: str) -> Response:
    """Audit the battle: its hash chain, a fresh replay against the stored outcomes, and its dice"""
    deps = services()
    created = deps.battles.created(battle_id)
    return json_response(audit(deps.store, battle_id, created, deps.config.audit_max_entries))
