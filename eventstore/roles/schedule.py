"""The schedule: which battles wait for a fold, coalesced so that one projection job carries many."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

SCHEDULED_TTL_S = 5  # a lost projection job delays folding by at most this long before appends reschedule


class Schedule(Protocol):
    def mark_pending(self, battle_id: str) -> bool:
        """Note that a battle needs folding; True when the caller should enqueue a projection job."""

    def take_pending(self, count: int) -> list[str]:
        """Pop up to `count` battles that need folding (the job clears the scheduled flag first)."""

    def clear_scheduled(self) -> None: ...

    def mark_pending_again(self, battle_ids: Sequence[str]) -> bool:
        """`mark_pending` for several battles at once (those a drain found locked by another folder, those
        the reconciler found lagging); True when the caller should enqueue a projection job."""
