"""bench.cpu.paused, which the API-alone ingest run stops the fold with: the processes it names are really
stopped inside the block and running again after it, even when the block fails."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.cpu import paused


def state(pid: int) -> str:
    """The kernel's one-letter state of a process: T stopped, S sleeping, R running."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def settled(pid: int, wanted: set[str], timeout_s: float = 5) -> str:
    deadline = time.monotonic() + timeout_s
    while (found := state(pid)) not in wanted and time.monotonic() < deadline:
        time.sleep(0.01)
    return found


@pytest.fixture
def marker() -> str:
    """A marker of this test's own: with a shared one, a test on the other xdist worker paused and resumed
    this test's sleeper too (its SIGCONT landed inside this test's block: state S where T was expected)."""
    return f"bench-paused-marker-{uuid.uuid4().hex}"


@pytest.fixture
def sleeper(marker: str) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", marker])
    try:
        yield process
    finally:
        process.kill()
        process.wait()


def test_the_named_processes_are_stopped_inside_and_running_after(
    sleeper: subprocess.Popen[bytes], marker: str
) -> None:
    with paused((marker,)) as stopped:
        assert stopped == [sleeper.pid]
        assert settled(sleeper.pid, {"T"}) == "T"
    assert settled(sleeper.pid, {"S", "R"}) in {"S", "R"}


def test_they_run_again_when_the_block_fails(sleeper: subprocess.Popen[bytes], marker: str) -> None:
    with pytest.raises(RuntimeError), paused((marker,)):
        assert settled(sleeper.pid, {"T"}) == "T"
        raise RuntimeError("the load run failed")
    assert settled(sleeper.pid, {"S", "R"}) in {"S", "R"}


def test_a_process_not_named_is_left_running(sleeper: subprocess.Popen[bytes]) -> None:
    with paused(("no-such-marker-anywhere",)) as stopped:
        assert stopped == []
        assert settled(sleeper.pid, {"S", "R"}) in {"S", "R"}
