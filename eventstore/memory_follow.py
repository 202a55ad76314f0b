"""Following outcomes in process memory: waits on the store's lock, which a saved projection notifies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from eventstore.memory_battle import MemoryKeys


class MemoryFollow(MemoryKeys):
    if TYPE_CHECKING:  # what it asks of the store's log

        def outcome(self, battle_id: str, version: int) -> str | None: ...

        def outcomes(self, battle_id: str, *, after: int = 0, limit: int = 100) -> list[tuple[int, str]]: ...

    def __init__(self) -> None:
        self._interrupted = False  # interrupt_follow was called: the next follow_outcomes returns

    def wait_outcome(self, battle_id: str, version: int, timeout_s: float) -> str | None:
        with self._changed:
            found: list[str | None] = [None]

            def landed() -> bool:
                found[0] = self.outcome(battle_id, version)
                return found[0] is not None

            self._changed.wait_for(landed, timeout=max(timeout_s, 0))
            return found[0]

    def follow_outcomes(
        self, cursors: Mapping[str, int], timeout_s: float, *, count: int = 100
    ) -> dict[str, list[tuple[int, str]]]:
        with self._changed:
            found: dict[str, list[tuple[int, str]]] = {}

            def landed() -> bool:
                for battle_id, after in cursors.items():
                    fresh = self.outcomes(battle_id, after=after, limit=count)
                    if fresh:
                        found[battle_id] = fresh
                return bool(found) or self._interrupted

            self._changed.wait_for(landed, timeout=max(timeout_s, 0))
            self._interrupted = False
            return found

    def interrupt_follow(self) -> None:
        with self._changed:
            self._interrupted = True
            self._changed.notify_all()
