"""The `make run` launcher starts everything, prints one `ready` line, restarts a dead worker, and Ctrl-C
leaves no process behind."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from launcher.probes import answers_200
from tests.fixtures.launched import WORKER, alive, descendants, launched
from tests.processes.client import eventually

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
