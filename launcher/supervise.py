"""Supervision of `make run`'s children: a crashed child is restarted after a doubling wait, a child in a
crash loop waits longest, and none is ever given up on; each restart is logged with its exit code."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field

from launcher.children import Child
from launcher.stack import Stack, say

WINDOW_S = 60.0  # the crash-loop window: `per_minute` restarts within it


@dataclass(frozen=True, slots=True, kw_only=True)
class RestartPolicy:
    first_s: float = 0.5  # wait before the first restart
    max_s: float = 30.0  # the doubling stops here; a crash loop waits this long every time
    steady_s: float = 60.0  # a child up this long has recovered: its next crash waits `first_s` again
    per_minute: int = 5  # restarts of one child within a minute before it counts as a crash loop

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> RestartPolicy:
        return cls(
            first_s=float(env.get("SIEGE_RESTART_BACKOFF_S", "0.5")),
            max_s=float(env.get("SIEGE_RESTART_BACKOFF_MAX_S", "30")),
            per_minute=int(env.get("SIEGE_RESTARTS_PER_MINUTE", "5")),
        )

    def wait_s(self, crashes: int, restarts_last_minute: int) -> float:
        """`crashes` in a row (none of them after `steady_s` up), this one included."""
        if restarts_last_minute >= self.per_minute:
            return self.max_s
        return float(min(self.first_s * 2 ** max(crashes - 1, 0), self.max_s))


@dataclass(slots=True)
class _History:
    crashes: int = 0
    restarts: deque[float] = field(default_factory=deque)  # when each restart of the last minute happened
    due: float | None = None  # a restart is scheduled for then


class Supervisor:
    """Call `tick()` often: it notices dead children, schedules their restarts and carries them out.
    A child that cannot be spawned any more (its program is gone) raises OSError to the caller."""

    def __init__(self, stack: Stack, policy: RestartPolicy) -> None:
        self.stack, self.policy = stack, policy
        self.history: dict[str, _History] = {}
        self.restarted = 0

    def tick(self) -> None:
        now = time.monotonic()  # the clock of Child.started_at
        for child in [c for c in self.stack.children if not c.alive]:
            history = self.history.setdefault(child.name, _History())
            if history.due is None:
                self._schedule(child, history, now)
            elif now >= history.due:
                self._restart(child, history, now)

    def _schedule(self, child: Child, history: _History, now: float) -> None:
        up_s = now - child.started_at
        history.crashes = 1 if up_s >= self.policy.steady_s else history.crashes + 1
        while history.restarts and now - history.restarts[0] > WINDOW_S:
            history.restarts.popleft()
        recent = len(history.restarts)
        wait_s = self.policy.wait_s(history.crashes, recent)
        history.due = now + wait_s
        looping = (
            f"; crash loop, {recent} restarts in the last minute" if recent >= self.policy.per_minute else ""
        )
        say(
            f"{child.name} exited with {child.process.returncode} after {up_s:.1f}s up; "
            f"restarting it in {wait_s:.1f}s (crash {history.crashes} in a row{looping})"
        )

    def _restart(self, child: Child, history: _History, now: float) -> None:
        fresh = self.stack.restart(child)
        history.due = None
        history.restarts.append(now)
        self.restarted += 1
        say(f"{child.name} restarted as pid {fresh.process.pid}")
