"""The `make run` launcher starts everything, prints one `ready` line, restarts a dead worker, and Ctrl-C
leaves no process behind."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from launcher.probes import answers_200, free_port
from tests.processes.client import eventually

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]
ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT_S = 90


def test_the_launcher_starts_everything_says_ready_and_ctrl_c_leaves_no_process(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_REDIS_URL", "SIEGE_API_KEY")}
    env.update(HOST="127.0.0.1", PORT=str(port), SIEGE_DATA_DIR=str(tmp_path / "var"), SIEGE_WORKERS="1")
    with (tmp_path / "launcher.log").open("wb") as log:
        launcher = subprocess.Popen(
            [sys.executable, "-m", "launcher"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log
        )
    family: set[int] = set()
    try:
        assert launcher.stdout is not None
        ready = next(line for line in _lines(launcher.stdout, READY_TIMEOUT_S) if "ready" in line)
        family = descendants(launcher.pid)

        assert f"http://127.0.0.1:{port}" in ready
        assert answers_200(f"http://127.0.0.1:{port}/readyz")
        assert len(family) >= 5  # store (+ its server), worker, reconciler, gunicorn (+ its workers)

        [worker] = rq_workers(launcher.pid)
        os.kill(worker, signal.SIGKILL)
        eventually(lambda: len(rq_workers(launcher.pid) - {worker}) == 1, 30, "a restarted worker")
        family = descendants(launcher.pid)

        launcher.send_signal(signal.SIGINT)
        assert launcher.wait(timeout=60) == 0
        eventually(lambda: not any(alive(pid) for pid in family), 15, "every child of the launcher to exit")
    finally:
        for pid in [launcher.pid, *family]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        launcher.wait(timeout=10)


def _lines(stream: IO[bytes], timeout_s: float) -> Iterator[str]:
    """Lines of the launcher's stdout, giving up after `timeout_s` (a reader thread keeps it bounded)."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        for raw in stream:
            lines.put(raw.decode(errors="replace"))
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    while (line := lines.get(timeout=timeout_s)) is not None:
        yield line
    raise AssertionError("the launcher closed its stdout without a `ready` line")


def descendants(root: int) -> set[int]:
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def rq_workers(root: int) -> set[int]:
    found = descendants(root)
    return {pid for pid in found if alive(pid) and "workers.worker siege-projection" in command_line(pid)}


def alive(pid: int) -> bool:
    """Running, as opposed to gone or a zombie waiting for a parent that will never reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
