"""`GET /healthz` (the process answers), `GET /readyz` (the event store and queue Redis answer) and
`GET /metrics` (Prometheus); none needs a battle token, and none counts against a rate-limit budget."""

from __future__ import annotations

from flask import Response

from schemas.views import HealthSchema
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.http.json_io import json_response
from service.metrics import metrics_response
from service.readiness import not_ready, probe

blp = Blueprint("health", __name__, description="Health: liveness and readiness probes, metrics.")


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


@blp.route("/metrics", methods=["GET"])
@blp.response(200)
@blp.doc(responses={"200": {"description": "The Prometheus text format", "content": {"text/plain": {}}}})
@blp.alt_response(401, response="UNAUTHORIZED", description="`SIEGE_METRICS=token:…` and no such bearer")
@blp.alt_response(404, response="NOT_FOUND", description="`SIEGE_METRICS=off`")
def read_metrics() -> Response:
    """Prometheus metrics of every API and worker process of this machine"""
    deps = services()
    return metrics_response(deps.config, deps.queue_redis)
