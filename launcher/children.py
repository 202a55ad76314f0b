"""Child processes in their own process groups: stopped as a group, and never outliving the parent."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

PR_SET_PDEATHSIG = 1


@dataclass(frozen=True, slots=True)
class Child:
    name: str
    process: subprocess.Popen[bytes]
    argv: list[str]
    env: Mapping[str, str]
    started_at: float = field(default_factory=time.monotonic)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def signal(self, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)

    def stop(self, grace_s: float = 10.0) -> int:
        """SIGTERM the group, SIGKILL what is left after `grace_s`; returns the leader's exit code."""
        self.signal(signal.SIGTERM)
        try:
            code = self.process.wait(grace_s)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            code = self.process.wait()
        self.signal(signal.SIGKILL)  # grandchildren the leader left behind in its group
        return code

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        self.process.wait()


def spawn(name: str, argv: list[str], env: Mapping[str, str], *, output: IO[Any] | None = None) -> Child:
    """Start `argv` in a new session; bare `python` and console scripts resolve to this interpreter's venv."""
    process = subprocess.Popen(
        resolve(argv),
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=output,
        stderr=output,
        start_new_session=True,
        preexec_fn=_die_with_parent,
    )
    return Child(name, process, argv, env)


def resolve(argv: list[str]) -> list[str]:
    program, *rest = argv
    if program == "python":
        return [sys.executable, *rest]
    beside = Path(sys.executable).parent / program
    return [str(beside) if beside.exists() else program, *rest]


def _die_with_parent() -> None:
    # a SIGKILLed launcher cannot clean up: the kernel sends each child SIGTERM instead
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
