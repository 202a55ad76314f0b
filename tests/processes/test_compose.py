"""docker-compose.yml runs the same commands as `make run`, scales workers, keeps Redis durable and full, is
a valid Compose file (the compose-spec JSON Schema), and each of its services comes up outside Docker."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft7Validator

from launcher import commands

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def service(compose: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = compose["services"][name]
    return found


def test_api_worker_reconciler_and_dashboard_run_the_launchers_commands(compose: dict[str, Any]) -> None:
    queue_url = service(compose, "worker")["environment"]["QUEUE_REDIS_URL"]
    worker_metrics = f"0.0.0.0:{commands.WORKER_METRICS_PORT}"

    assert service(compose, "api")["command"] == commands.api("0.0.0.0:8000")
    assert service(compose, "worker")["command"] == commands.worker(queue_url, metrics_bind=worker_metrics)
    webhooks = commands.webhook_worker(queue_url, metrics_bind=worker_metrics)
    assert service(compose, "webhook-worker")["command"] == webhooks
    assert service(compose, "reconciler")["command"] == commands.reconciler()
    assert service(compose, "dashboard")["command"] == commands.dashboard(queue_url)


def test_the_file_is_valid_against_the_compose_spec_schema(compose: dict[str, Any]) -> None:
    schema = json.loads((ROOT / "tests/processes/data/compose-spec.json").read_text())
    errors = sorted(Draft7Validator(schema).iter_errors(compose), key=lambda e: list(e.absolute_path))
    assert [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors] == []


def test_the_dashboard_is_optional_and_the_api_stops_gracefully(compose: dict[str, Any]) -> None:
    assert service(compose, "dashboard")["profiles"] == ["dashboard"]
    assert all("profiles" not in service(compose, name) for name in ("redis", "api", "worker", "reconciler"))
    assert service(compose, "api")["stop_grace_period"] == "20s"  # above gunicorn's graceful_timeout, 15 s
    assert "redis-data:/data" in service(compose, "redis")["volumes"]


def test_workers_scale_and_the_long_running_services_have_healthchecks(compose: dict[str, Any]) -> None:
    assert "container_name" not in service(compose, "worker")
    for name in ("redis", "api", "worker"):
        assert service(compose, name)["healthcheck"]["test"][0] == "CMD"


def test_only_the_front_is_published_and_it_renders_the_template_make_run_uses(
    compose: dict[str, Any],
) -> None:
    front = service(compose, "front")
    assert front["ports"] == ["${HOST:-127.0.0.1}:${PORT:-8000}:8000"]
    assert (
        "ports" not in service(compose, "api")
        and service(compose, "api")["environment"]["SIEGE_BEHIND_FRONT"] == "1"
    )
    mounted = front["volumes"][0].split(":")
    assert mounted[0] == "./deploy/front.conf.template" and (ROOT / "deploy/front.conf.template").is_file()
    assert mounted[1].startswith("/etc/nginx/templates/")  # the nginx image renders ${SIEGE_FRONT_*} there
    assert front["environment"]["SIEGE_FRONT_UPSTREAM"] == "api:8000"


def test_redis_fsyncs_every_write_by_default_and_never_evicts(compose: dict[str, Any]) -> None:
    command = service(compose, "redis")["command"]

    assert command[command.index("--appendonly") + 1] == "yes"
    assert command[command.index("--appendfsync") + 1] == "${REDIS_APPENDFSYNC:-always}"
    assert command[command.index("--maxmemory-policy") + 1] == "noeviction"


def test_docker_compose_accepts_the_file() -> None:
    docker = shutil.which("docker")
    if docker is None or subprocess.run([docker, "compose", "version"], capture_output=True).returncode:
        pytest.skip("no `docker compose` on this machine; the YAML checks above still ran")
    done = subprocess.run(
        [docker, "compose", "config", "--quiet"],
        cwd=ROOT,
        env={**os.environ, "SIEGE_API_KEY": "compose-check"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
