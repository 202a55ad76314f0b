"""`GET /battles/{id}/state[?at=v]`: the projection, or the state at any past version (time travel)."""

from __future__ import annotations

from flask import Response
from marshmallow import RAISE

from replay.folds import state_at
from schemas.base import StrictSchema, cursor
from schemas.views import BattleStateSchema
from service.access import auth
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.http.etags import etag, not_modified
from service.http.json_io import json_response, per_reader
from service.reading.hiding import HIDDEN, blanked_state

blp = Blueprint("state", __name__, url_prefix="/battles", description="State: projections and time travel.")
ETAG = {
    "ETag": {
        "description": "the chain hash of the version the state reflects, with `/hidden-<reader>` while "
        "orders are withheld from the reader",
        "schema": {"type": "string"},
    }
}


class StateQuerySchema(StrictSchema):
    at = cursor(1, metadata={"description": "a version; default: projected"})


@blp.route("/<battle_id>/state", methods=["GET"])
@blp.access("read")
@blp.arguments(StateQuerySchema, location="query", as_kwargs=True, unknown=RAISE)
@blp.response(200, BattleStateSchema, headers=ETAG)
@blp.alt_response(304, response="NOT_MODIFIED")
@blp.alt_response(404, response="NOT_FOUND")
def read_state(battle_id: str, at: int | None = None) -> Response:
    """Read the battle's state: the current projection, or the state at version `at`"""
    deps = services()
    created = deps.battles.created(battle_id)
    state = state_at(deps.store, deps.folds, created, battle_id, at)
    entry = deps.store.entry(battle_id, state.version)
    sight = deps.reveals.sight(deps.store, battle_id, str(created.data["ruleset"]), auth.reader())
    shown, qualifier = state.state, None
    if sight.policy is not None and sight.blanks(state.version):  # orders the reader may not see: withheld
        shown, qualifier = (
            blanked_state(state.state, sight.policy, sight.reader),
            f"{HIDDEN}-{sight.reader.key}",
        )
    tag = etag(entry.hash if entry else "", qualifier)
    return per_reader(not_modified(tag) or json_response(shown, 200, {"ETag": tag}))
