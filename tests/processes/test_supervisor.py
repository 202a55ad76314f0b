"""The launcher's supervision: a crashed child is restarted after a doubling wait, a crash loop waits
longest and is never given up on, and a child that cannot start at all stops the launcher with a reason."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from launcher.probes import free_port
from launcher.stack import Stack
from launcher.supervise import RestartPolicy, Supervisor

ROOT = Path(__file__).resolve().parents[2]


def test_waits_double_from_half_a_second_to_thirty() -> None:
    policy = RestartPolicy()

    waits = [policy.wait_s(crashes, restarts_last_minute=0) for crashes in range(1, 9)]

    assert waits == [0.5, 1, 2, 4, 8, 16, 30, 30]


def test_a_crash_loop_waits_the_longest_every_time() -> None:
    policy = RestartPolicy(per_minute=5)

    assert policy.wait_s(crashes=1, restarts_last_minute=5) == 30
    assert policy.wait_s(crashes=1, restarts_last_minute=4) == 0.5


def test_the_restart_settings_come_from_the_environment() -> None:
    env = {
        "SIEGE_RESTART_BACKOFF_S": "1",
        "SIEGE_RESTART_BACKOFF_MAX_S": "8",
        "SIEGE_RESTARTS_PER_MINUTE": "3",
    }

    assert RestartPolicy.from_env(env) == RestartPolicy(first_s=1, max_s=8, per_minute=3)
    assert RestartPolicy.from_env({}) == RestartPolicy()


@pytest.mark.slow
def test_a_child_that_keeps_crashing_is_restarted_every_time_and_logged(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stack = Stack(output=subprocess.DEVNULL)  # type: ignore[arg-type]
    supervisor = Supervisor(stack, RestartPolicy(first_s=0.1, max_s=0.4, per_minute=3))
    stack.start("crasher", ["python", "-c", "raise SystemExit(3)"], os.environ)
    try:
        deadline = time.monotonic() + 5
        while supervisor.restarted < 6 and time.monotonic() < deadline:
            supervisor.tick()
            time.sleep(0.01)
    finally:
        stack.stop()
    said = capsys.readouterr().err

    assert supervisor.restarted >= 6
    assert "crasher exited with 3" in said and "restarting it in 0.2s (crash 2 in a row)" in said
    assert "restarting it in 0.4s (crash 4 in a row; crash loop, 3 restarts in the last minute)" in said


@pytest.mark.slow
def test_a_child_that_cannot_start_at_all_stops_the_launcher_with_its_reason(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_REDIS_URL")}
    env.update(HOST="192.0.2.1", PORT=str(free_port()), SIEGE_DATA_DIR=str(tmp_path), SIEGE_WORKERS="1")
    env.update(SIEGE_FRONT="off")  # gunicorn itself binds the address no interface has

    done = subprocess.run(
        [sys.executable, "-m", "launcher"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=90
    )

    assert done.returncode == 1
    assert "api exited with" in done.stderr and "while starting" in done.stderr
    assert "ready" not in done.stdout
