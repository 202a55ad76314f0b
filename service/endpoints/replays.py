"""`POST /battles/{id}/replays` and `GET .../replays/{job}`: rebuild or verify the projection in an RQ job."""

from __future__ import annotations

from typing import Any

from flask import Response

from replay import jobs
from schemas.audit import ReplayJobSchema, ReplayRequestSchema
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.http.json_io import json_response

blp = Blueprint(
    "replays", __name__, url_prefix="/battles", description="Replays: rebuild or verify a projection."
)
LOCATION = {"Location": {"description": "the job, to poll", "schema": {"type": "string"}}}


@blp.route("/<battle_id>/replays", methods=["POST"])
@blp.access("gm")
@blp.json_body(ReplayRequestSchema)
@blp.response(202, ReplayJobSchema, headers=LOCATION)
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(503, response="SERVICE_UNAVAILABLE")
def start_replay(battle_id: str, body: dict[str, Any]) -> Response:
    """Start a replay job: `rebuild` the derived keys from the log, or `verify` them against a fresh fold"""
    mode = body["mode"]
    deps = services()
    deps.battles.created(battle_id)
    job_id = jobs.start(deps.queue_redis, battle_id, mode)
    view = {"job_id": job_id, "mode": mode, "status": "queued", "result": None, "error": None}
    return json_response(view, 202, {"Location": f"/battles/{battle_id}/replays/{job_id}"})


@blp.route("/<battle_id>/replays/<job_id>", methods=["GET"])
@blp.access("read")
@blp.response(200, ReplayJobSchema)
@blp.alt_response(404, response="NOT_FOUND")
def read_replay(battle_id: str, job_id: str) -> Response:
    """Read a replay job: queued, started, finished (with its result) or failed (with its error)"""
    deps = services()
    deps.battles.created(battle_id)
    return json_response(jobs.view(deps.queue_redis, battle_id, job_id))
