"""CPU seconds the stack's processes use while a load runs, per request and per role (the API, the baseline,
the fold's workers, the store): the part of the ingest gap that wall-clock rates on a shared machine hide.

Only this virtualenv's processes count (the machine may run other things); this process does not."""

from __future__ import annotations

import os
import signal
import sys
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

ROLES = ("api", "fold", "store", "other")  # the service's parts, in the order a row names them


@dataclass(frozen=True, slots=True)
class Used:
    """CPU milliseconds per request by role, between two samples."""

    per_request_ms: dict[str, float]

    @property
    def total_ms(self) -> float:
        return sum(self.per_request_ms.values())

    def describe(self) -> str:
        parts = [f"{role} {ms:.2f}" for role, ms in self.per_request_ms.items() if ms >= 0.005]
        return f"{self.total_ms:.2f} ms ({', '.join(parts)})"


def processes() -> dict[str, tuple[str, float]]:
    """pid → (command line, user + system CPU seconds so far) of this virtualenv's processes."""
    tick, found = os.sysconf("SC_CLK_TCK"), {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ").strip()[:200]
        except OSError:
            continue
        if sys.prefix in command and int(pid) != os.getpid():
            found[pid] = (command.replace(sys.prefix + "/", ""), (int(fields[11]) + int(fields[12])) / tick)
    return found


FOLD_PROCESSES = ("workers.worker", "workers.reconcile")  # what folds, as their command lines say


@contextmanager
def paused(markers: tuple[str, ...]) -> Iterator[list[int]]:
    """This virtualenv's processes whose command line holds one of `markers`, stopped (SIGSTOP) inside the
    block and resumed (SIGCONT) after it, whatever happens in it; yields their pids."""
    stopped = [int(pid) for pid, (command, _) in processes().items() if any(m in command for m in markers)]
    try:
        for pid in stopped:
            os.kill(pid, signal.SIGSTOP)
        yield stopped
    finally:
        for pid in stopped:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


def used(
    before: dict[str, tuple[str, float]],
    after: dict[str, tuple[str, float]],
    requests: int,
    api_bind: str,
    roles: tuple[str, ...] = ROLES,
) -> Used:
    """What each of `roles` used between the samples; `api_bind` (host:port) tells the loaded gunicorn
    from the other one. A process that started or ended in between is left out (none does in a load)."""
    started = by_role({pid: row for pid, row in before.items() if pid in after}, api_bind)
    ended = by_role({pid: row for pid, row in after.items() if pid in before}, api_bind)
    per_request = {role: 1000 * (ended[role] - started[role]) / max(requests, 1) for role in roles}
    return Used(per_request)


def by_role(sample: dict[str, tuple[str, float]], api_bind: str) -> dict[str, float]:
    """CPU seconds so far of each role's processes in one sample (see `used`)."""
    seconds: dict[str, float] = defaultdict(float)
    for command, spent in sample.values():
        seconds[_role(command, api_bind)] += spent
    return seconds


def _role(command: str, api_bind: str) -> str:
    if "gunicorn" in command:
        return "api" if api_bind in command else "idle"  # the other app sits idle meanwhile
    if "workers.worker" in command:
        return "fold"
    if "valkey" in command or "redis-server" in command:
        return "store"
    return "other"  # the reconciler, the launcher
