"""Waits between retries that double up to a cap, for processes that must outlast a Redis outage."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Backoff:
    """`next()` gives `first_s`, then twice the last wait, never more than `max_s`; `reset()` starts over."""

    first_s: float = 0.5
    max_s: float = 30.0
    _next_s: float = field(init=False, default=0.0)

    def __post_init__(self) -> None:
        self.reset()

    def next(self) -> float:
        wait, self._next_s = self._next_s, min(self._next_s * 2, self.max_s)
        return wait

    def reset(self) -> None:
        self._next_s = self.first_s
