"""Each service of docker-compose.yml, its command and environment as the file says, run as a local process
against the embedded server (the compose host names and binds swapped for loopback ones): the API answers
/readyz, the worker registers with RQ and serves its metrics, the reconciler's passes get a battle nobody
scheduled folded, and the dashboard answers."""

from __future__ import annotations

import os
import re
import secrets
import threading
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from rq import Worker

from eventstore.config import connect
from eventstore.queues import PROJECT_PENDING
from eventstore.redis_store import RedisEventStore
from launcher.probes import answers_200, free_port, wait_until
from launcher.stack import Stack
from tests.fixtures.processes import with_db_offset
from tests.processes.client import eventually
from tests.workers.logs import append, new_battle

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]
ROOT = Path(__file__).resolve().parents[2]
DB_OFFSET = 14  # clear of the other process tests' databases
COMPOSE_REDIS = "redis://redis:6379/0"
VARIABLE = re.compile(r"\$\{(\w+)(?::[-?]([^}]*))?\}")
UP_WITHIN_S = 60


@dataclass
class Local:
    """The compose services as local processes, and the loopback addresses they were given."""

    stack: Stack
    redis_url: str
    binds: dict[str, str]  # the compose bind → the loopback one it became
    log_path: Path

    def url(self, compose_bind: str) -> str:
        return f"http://{self.binds[compose_bind]}"

    def log_tail(self) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-30:])


def interpolate(value: str, env: Mapping[str, str]) -> str:
    """Compose's `${NAME}`, `${NAME:-default}` and `${NAME:?error}`, the forms the file uses."""

    def one(found: re.Match[str]) -> str:
        name, default = found.group(1), found.group(2) or ""
        if ":?" in found.group(0):
            return env[name]  # a variable the file requires: the test supplies it
        return env.get(name) or default

    return VARIABLE.sub(one, value)


@pytest.fixture(scope="module")
def local(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Local]:
    compose: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    url = with_db_offset(redis_url, DB_OFFSET)
    connect(url).flushdb()
    answers = {"SIEGE_API_KEY": secrets.token_urlsafe(12)}
    binds = {bind: f"127.0.0.1:{free_port()}" for bind in ("0.0.0.0:8000", "0.0.0.0:9100", "0.0.0.0:9101")}
    dashboard_port = str(free_port())
    binds["0.0.0.0:9181"] = f"127.0.0.1:{dashboard_port}"
    swap = {COMPOSE_REDIS: url, **binds, "9181": dashboard_port, "0.0.0.0": "127.0.0.1"}
    log_path = tmp_path_factory.mktemp("compose") / "services.log"
    with log_path.open("ab") as log:
        stack = Stack(output=log)
        try:
            for name in ("worker", "reconciler", "api", "dashboard"):
                declared = compose["services"][name]
                argv = [_loopback(interpolate(str(a), answers), swap) for a in declared["command"]]
                env = {k: _loopback(v, swap) for k, v in _environment(declared, answers).items()}
                stack.start(name, argv, {**_base_env(), **env})
            yield Local(stack=stack, redis_url=url, binds=binds, log_path=log_path)
        finally:
            stack.stop()


def test_the_api_comes_up_ready(local: Local) -> None:
    up = wait_until(
        lambda: answers_200(f"{local.url('0.0.0.0:8000')}/readyz"),
        local.stack,
        threading.Event(),
        UP_WITHIN_S,
    )
    assert up, local.log_tail()
    assert "siege_queue_depth" in _get(f"{local.url('0.0.0.0:9100')}/metrics")  # SIEGE_METRICS_BIND


def test_the_worker_registers_and_serves_its_metrics(local: Local) -> None:
    queue = connect(local.redis_url)
    eventually(
        lambda: any(PROJECT_PENDING.queue in w.queue_names() for w in Worker.all(connection=queue)),
        UP_WITHIN_S,
        "a worker to register",
    )
    assert "# TYPE siege_commands_total counter" in _get(f"{local.url('0.0.0.0:9101')}/metrics")


def test_the_reconciler_gets_a_battle_nobody_scheduled_folded(local: Local) -> None:
    store = RedisEventStore(connect(local.redis_url))
    battle_id = new_battle(store)
    append(store, battle_id, 3)  # appended without marking it pending: only a reconciler pass finds it

    eventually(
        lambda: store.projected_version(battle_id) == 4, UP_WITHIN_S, "the reconciler and worker to fold it"
    )


def test_the_dashboard_answers(local: Local) -> None:
    eventually(lambda: answers_200(local.url("0.0.0.0:9181") + "/"), UP_WITHIN_S, "the dashboard to answer")


def _loopback(value: str, swap: Mapping[str, str]) -> str:
    return swap.get(value, value)


def _environment(declared: dict[str, Any], answers: Mapping[str, str]) -> dict[str, str]:
    return {k: interpolate(str(v), answers) for k, v in (declared.get("environment") or {}).items()}


def _base_env() -> dict[str, str]:
    """This machine's environment less anything of ours: only what the compose file says reaches them."""
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("REDIS_URL", "QUEUE_REDIS_URL", "SIEGE_", "PROMETHEUS_"))
    } | {"PYTHONUNBUFFERED": "1"}


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return str(response.read().decode())
