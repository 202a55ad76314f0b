"""`GET /healthz` (the process answers) and `GET /readyz` (the event store and queue Redis answer)."""

from __future__ import annotations

from flask import Response

from schemas.views import HealthSchema
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.httpio import json_response
from service.readiness import not_ready, probe

blp = Blueprint("health", __name__, description="Health: liveness and readiness probes.")


@blp.route("/healthz", methods=["GET"])
@blp.response(200, HealthSchema)
def check_liveness() -> Response:
    """Liveness: the process answers"""
    return json_response({"status": "ok"})


@blp.route("/readyz", methods=["GET"])
@blp.response(200, HealthSchema)
@blp.alt_response(503, response="SERVICE_UNAVAILABLE", description="`not-ready`: `checks` names what is down")
def check_readiness() -> Response:
    """Readiness: the event store and the queue Redis answer"""
    checks = probe(services())
    down = [name for name, result in checks.items() if result != "ok"]
    if down:
        raise not_ready(checks, down)
    return json_response({"status": "ok", "checks": checks})
