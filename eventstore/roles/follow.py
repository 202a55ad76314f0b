"""Following: waiting for outcomes as they land, for one battle or for many at once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class Follow(Protocol):
    def wait_outcome(self, battle_id: str, version: int, timeout_s: float) -> str | None:
        """Block up to timeout_s until the outcome of `version` exists (XREAD BLOCK on the outcomes)."""

    def follow_outcomes(
        self, cursors: Mapping[str, int], timeout_s: float, *, count: int = 100
    ) -> dict[str, list[tuple[int, str]]]:
        """Block up to timeout_s until any battle of `cursors` (battle → last version seen) has outcomes
        after its cursor; those outcomes, at most `count` per battle, by battle ({} when none came). One
        call watches every battle: what a process's stream reader waits on for all its subscribers."""

    def interrupt_follow(self) -> None:
        """End this process's follow_outcomes call in progress at once ({} when nothing came), or its next
        one if none is: the reader has a battle to add to what it watches."""
