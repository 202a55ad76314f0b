"""`GET /healthz` (the process answers) and `GET /readyz` (the event store and queue Redis answer)."""

from __future__ import annotations

from flask import Response

from schemas.views import HealthSchema
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.httpio import json_response
from service.readiness import probe

blp = Blueprint("health", __name__, description="Health: liveness and readiness probes.")


@blp.route("/healthz", methods=["GET"])
@blp.response(200, HealthSchema)
def healthz() -> Response:
    """Liveness: the process answers"""
    return json_response({"status": "ok"})


@blp.route("/readyz", methods=["GET"])
@blp.response(200, HealthSchema)
@blp.alt_response(503, schema=HealthSchema, description="a dependency does not answer")
def readyz() -> Response:
    """Readiness: the event store and the queue Redis answer"""
    checks = probe(services())
    ready = all(result == "ok" for result in checks.values())
    return json_response(
        {"status": "ok" if ready else "unavailable", "checks": checks}, 200 if ready else 503
    )
