"""Metrics from real processes: the API's /metrics adds up both gunicorn workers and the RQ worker (one
samples directory, as `make run` shares), and SIEGE_METRICS_BIND serves them apart from the API port."""

from __future__ import annotations

import re
import secrets
import threading
import urllib.request
from pathlib import Path

import pytest

from eventstore.config import connect
from launcher import commands
from launcher.probes import answers_200, free_port, wait_until
from launcher.stack import Stack, child_env
from tests.fixtures.processes import LiveService, with_db_offset
from tests.processes.client import call, create_battle, eventually, send
from tests.service.test_metrics import sample

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]
DB_OFFSET = 13  # clear of the tests' databases, the live service's (8) and gunicorn_conf's test (12)


def scrape(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        return str(response.read().decode())


def test_one_scrape_adds_up_every_api_and_worker_process(live_service: LiveService) -> None:
    live = live_service
    before = sample(scrape(f"{live.base_url}/metrics"), "siege_append_seconds_count", ruleset="epic")
    battle_id, token = create_battle(live)
    for _ in range(6):
        assert send(live, battle_id, token, {"type": "advance_phase"}).status == 202
    store = live.store()
    eventually(lambda: store.projected_version(battle_id) == 7, 30, "the worker to fold the battle")

    scraped = [scrape(f"{live.base_url}/metrics") for _ in range(6)]  # answered by either gunicorn worker

    appended = {sample(text, "siege_append_seconds_count", ruleset="epic") for text in scraped}
    assert len(appended) == 1 and appended.pop() >= before + 6
    folded = sample(
        scraped[-1], "siege_commands_total", ruleset="epic", type="advance_phase", status="applied"
    )
    assert folded >= 6  # counted by the RQ worker, another process
    eventually(lambda: _jobs_done(live) >= 1, 30, "the projection job to end and be timed")


FROZE = re.compile(r"process (\d+) \((api|worker)\) froze (\d+) objects")


def test_every_api_and_rq_worker_process_froze_what_it_started_with(live_service: LiveService) -> None:
    """telemetry/gc_pauses.py's settle() ran in each gunicorn worker and each RQ worker (projections and
    webhooks): the line it logs names those very processes, their pids read from the system."""
    live = live_service
    master = next(child for child in live.stack.children if child.name == "api").process.pid
    api = {int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()}
    rq = {c.process.pid for c in live.stack.children if c.alive and c.name.startswith(("worker", "webhooks"))}
    assert len(api) == 2 and len(rq) >= 2

    def froze() -> dict[int, tuple[str, int]]:
        text = live.log_path.read_text(errors="replace")
        return {int(pid): (role, int(n)) for pid, role, n in FROZE.findall(text)}

    eventually(lambda: api | rq <= froze().keys(), 30, "every process to settle (one may still be starting)")
    logged = froze()
    assert all(logged[pid][0] == "api" for pid in api) and all(logged[pid][0] == "worker" for pid in rq)
    assert all(logged[pid][1] > 10_000 for pid in api | rq), logged


def _jobs_done(live: LiveService) -> float:
    text = scrape(f"{live.base_url}/metrics")
    return sample(text, "siege_job_seconds_count", job="project_pending", outcome="ok")


def test_metrics_bind_serves_them_apart_while_the_api_port_refuses(redis_url: str, tmp_path: Path) -> None:
    url = with_db_offset(redis_url, DB_OFFSET)
    connect(url).flushdb()
    bind, metrics_bind = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    env = {
        **child_env(url, url, secrets.token_urlsafe(8)),
        "SIEGE_METRICS": "off",
        "SIEGE_METRICS_BIND": metrics_bind,
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)  # gunicorn makes its own
    with (tmp_path / "api.log").open("ab") as log:
        stack = Stack(output=log)
        try:
            stack.start("api", commands.api(bind), env)
            assert wait_until(lambda: answers_200(f"http://{bind}/readyz"), stack, threading.Event(), 60)
            key = {"Authorization": f"Bearer {env['SIEGE_API_KEY']}"}
            created = call("POST", f"http://{bind}/battles", {"ruleset": "epic"}, key).body
            command = f"http://{bind}/battles/{created['id']}/commands"
            gm = {"Authorization": f"Bearer {created['gm_token']}"}
            assert call("POST", command, {"type": "advance_phase"}, gm).status == 202

            assert call("GET", f"http://{bind}/metrics").status == 404
            text = scrape(f"http://{metrics_bind}/metrics")
            assert sample(text, "siege_append_seconds_count", ruleset="epic") == 1
            assert 'siege_queue_depth{queue="siege-projection"}' in text
        finally:
            stack.stop()
