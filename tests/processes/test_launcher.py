"""The `make run` launcher starts everything, prints one `ready` line, restarts a dead worker, and Ctrl-C
leaves no process behind; its children share one metrics directory, gone with the run."""

from __future__ import annotations

import os
import signal
import urllib.request
from pathlib import Path

import pytest

from launcher.probes import answers_200
from tests.api.test_metrics import sample
from tests.fixtures.launched import WORKER, alive, descendants, launched
from tests.processes.client import call, eventually

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


def _env_of(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode().split("=", 1) for item in raw if b"=" in item)
