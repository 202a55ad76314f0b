"""The `make run` launcher starts everything, prints one `ready` line, restarts a dead worker, and Ctrl-C
leaves no process behind; its children share one metrics directory, gone with the run."""

from __future__ import annotations

import os
import signal
import socket
import stat
import urllib.request
from pathlib import Path

import pytest

from eventstore.embedded import PASSWORD_FILE
from launcher.probes import answers_200, pings
from tests.fixtures.launched import (
    GUNICORN,
    RECONCILER,
    STORE_LINE,
    VALKEY,
    WORKER,
    alive,
    command_line,
    descendants,
    launched,
)
from tests.processes.client import call, eventually
from tests.service.test_metrics import sample

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]


def test_the_launcher_starts_everything_says_ready_and_ctrl_c_leaves_no_process(tmp_path: Path) -> None:
    with launched(tmp_path, {"SIEGE_WORKERS": "1"}) as run:
        family = descendants(run.process.pid)

        assert run.base_url in run.ready_line
        assert answers_200(f"{run.base_url}/readyz")
        assert len(family) >= 5  # store (+ its server), worker, reconciler, gunicorn (+ its workers)

        [worker] = run.pids(WORKER)
        os.kill(worker, signal.SIGKILL)
        eventually(lambda: len(run.pids(WORKER) - {worker}) == 1, 30, "a restarted worker")
        family = descendants(run.process.pid)

        run.process.send_signal(signal.SIGINT)
        assert run.process.wait(timeout=60) == 0
        eventually(lambda: not any(alive(pid) for pid in family), 15, "every child of the launcher to exit")


def test_make_run_metrics_add_up_the_workers_and_their_directory_goes_with_the_run(tmp_path: Path) -> None:
    with launched(tmp_path, {"SIEGE_WORKERS": "1"}) as run:
        [metrics_dir] = {_env_of(pid)["PROMETHEUS_MULTIPROC_DIR"] for pid in run.pids(WORKER)}
        key = {"Authorization": f"Bearer {run.api_key}"}
        created = call("POST", f"{run.base_url}/battles", {"ruleset": "epic"}, key).body
        command = f"{run.base_url}/battles/{created['id']}/commands"
        gm = {"Authorization": f"Bearer {created['gm_token']}", "Prefer": "wait=10"}
        assert call("POST", command, {"type": "advance_phase"}, gm).status == 200  # folded by the worker

        folded = {"ruleset": "epic", "type": "advance_phase", "status": "applied"}

        def counted() -> bool:
            with urllib.request.urlopen(f"{run.base_url}/metrics", timeout=10) as response:
                scraped = response.read().decode()
            return bool(sample(scraped, "siege_commands_total", **folded) == 1)

        # counted in the worker's process just after the outcome it wrote woke the waiting request
        eventually(counted, 10, "the worker's count of the folded command")
        run.process.send_signal(signal.SIGINT)
        assert run.process.wait(timeout=60) == 0
    assert not Path(metrics_dir).exists()


def test_make_run_guards_its_store_with_a_password_kept_owner_only_reused_and_never_logged(
    tmp_path: Path,
) -> None:
    """Issue 22: the embedded store answered any local process, and it holds the dice seeds and the
    webhook secrets."""
    kept = tmp_path / "var" / PASSWORD_FILE
    with launched(tmp_path, {"SIEGE_WORKERS": "1"}) as run:
        password = kept.read_text().strip()
        port = _store_port(run.log_path)
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
        assert stat.S_IMODE((kept.parent / "appendonlydir").stat().st_mode) == 0o700  # the AOF holds the same
        assert _ping_without_password(port).startswith(b"-NOAUTH")
        url = f"redis://:{password}@127.0.0.1:{port}/0"
        workers = run.pids("workers.worker")
        assert len(workers) == 2  # the projection worker and the webhook worker
        children = workers | run.pids(GUNICORN) | run.pids(RECONCILER)
        urls = {(_env_of(pid)["REDIS_URL"], _env_of(pid)["QUEUE_REDIS_URL"]) for pid in children}
        assert urls == {(url, url)}
        assert [pid for pid in descendants(run.process.pid) if password in command_line(pid)] == []
        battle_id, gm = _folded_battle(run.base_url, run.api_key)  # every child reached the store with it

        run.kill_one(lambda: run.pids(VALKEY))  # the supervisor's restart reads the same password
        eventually(lambda: pings(url), 30, "the restarted store, with the same password")
        assert _ping_without_password(port).startswith(b"-NOAUTH")
        first_log, ready = run.log_path.read_text(errors="replace"), run.ready_line
    with launched(tmp_path, {"SIEGE_WORKERS": "1"}) as again:  # the same data directory
        assert kept.read_text().strip() == password
        assert call("GET", f"{again.base_url}/battles/{battle_id}", headers=gm).status == 200
        assert _ping_without_password(_store_port(again.log_path)).startswith(b"-NOAUTH")
        second_log, ready_again = again.log_path.read_text(errors="replace"), again.ready_line

    assert "store restarted" in first_log and "embedded store at redis://127.0.0.1:" in second_log
    server_log = (kept.parent / "valkey.log").read_text(errors="replace")
    for text in (first_log, ready, second_log, ready_again, server_log):
        assert password not in text


def _store_port(log_path: Path) -> int:
    found = STORE_LINE.search(log_path.read_text(errors="replace"))
    assert found, "no `embedded store at` line"
    return int(found.group(1))


def _ping_without_password(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"PING\r\n")
        return sock.recv(200)


def _folded_battle(base_url: str, api_key: str) -> tuple[str, dict[str, str]]:
    created = call("POST", f"{base_url}/battles", {"ruleset": "epic"}, {"Authorization": f"Bearer {api_key}"})
    assert created.status == 201, created.body
    gm = {"Authorization": f"Bearer {created.body['gm_token']}"}
    command = f"{base_url}/battles/{created.body['id']}/commands"
    assert call("POST", command, {"type": "advance_phase"}, {**gm, "Prefer": "wait=10"}).status == 200
    return created.body["id"], gm


def _env_of(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode().split("=", 1) for item in raw if b"=" in item)
