"""Folds in process memory: a battle's state and snapshots, its fold lock (expiring, as Redis's does), and a
drain round's batched calls made one battle at a time."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from eventstore.errors import UnknownBattle
from eventstore.memory_battle import MemoryKeys
from eventstore.records import FoldSave, FoldStart, Head, Projection, StoredEntry
from eventstore.roles.folds import Saved, require_consecutive


class MemoryFolds(MemoryKeys):
    if TYPE_CHECKING:  # what it asks of the store's log

        def head(self, battle_id: str) -> Head: ...

        def read(self, battle_id: str, *, after: int = 0, limit: int = 100) -> list[StoredEntry]: ...

        def projected_version(self, battle_id: str) -> int: ...

    def __init__(self) -> None:
        self._locks_lock = threading.Lock()
        self._locks: dict[str, tuple[str, float]] = {}  # battle -> (owner, until on the monotonic clock)

    def projection(self, battle_id: str) -> Projection | None:
        with self._changed:
            battle = self._battles.get(battle_id)
            return battle.state if battle else None

    def save_projection(
        self,
        battle_id: str,
        *,
        state: Projection,
        outcomes: Sequence[tuple[int, str]],
        snapshots: Sequence[Projection] = (),
    ) -> bool:
        require_consecutive(outcomes)
        with self._changed:
            saved = self._battle(battle_id).save(state, list(outcomes), list(snapshots))
            self._changed.notify_all()
            return saved

    def send_projection(
        self,
        battle_id: str,
        *,
        state: Projection,
        outcomes: Sequence[tuple[int, str]],
        snapshots: Sequence[Projection] = (),
    ) -> Saved:
        return Saved(self.save_projection(battle_id, state=state, outcomes=outcomes, snapshots=snapshots))

    def snapshot_at_or_before(self, battle_id: str, version: int) -> Projection | None:
        with self._changed:
            battle = self._battles.get(battle_id)
            return battle.snapshot_at_or_before(version) if battle else None

    def delete_derived(self, battle_id: str) -> None:
        with self._changed:
            if battle_id in self._battles:
                self._battles[battle_id].delete_derived()

    def try_lock(self, battle_id: str, owner: str, ttl_ms: int) -> bool:
        with self._locks_lock:
            now = time.monotonic()
            holder = self._locks.get(battle_id)
            if holder is not None and holder[1] > now and holder[0] != owner:
                return False
            self._locks[battle_id] = (owner, now + ttl_ms / 1000)
            return True

    def unlock(self, battle_id: str, owner: str) -> None:
        with self._locks_lock:
            holder = self._locks.get(battle_id)
            if holder is not None and holder[0] == owner:
                del self._locks[battle_id]

    def begin_folds(
        self, battle_ids: Sequence[str], owner: str, ttl_ms: int, *, limit: int
    ) -> list[FoldStart | None]:
        return [self._begin(battle_id, owner, ttl_ms, limit) for battle_id in battle_ids]

    def _begin(self, battle_id: str, owner: str, ttl_ms: int, limit: int) -> FoldStart | None:
        if not self.try_lock(battle_id, owner, ttl_ms):
            return None
        saved = self.projection(battle_id)
        try:
            entries = self.read(battle_id, after=saved.version if saved else 0, limit=limit)
        except UnknownBattle:
            entries = []
        return FoldStart(projection=saved, entries=entries)

    def finish_folds(self, owner: str, folds: Sequence[tuple[str, FoldSave | None]]) -> list[bool]:
        return [self._finish(owner, battle_id, save) for battle_id, save in folds]

    def _finish(self, owner: str, battle_id: str, save: FoldSave | None) -> bool:
        try:
            if save is None:
                return False
            return self.save_projection(
                battle_id, state=save.state, outcomes=save.outcomes, snapshots=save.snapshots
            )
        except UnknownBattle:
            return False
        finally:
            self.unlock(battle_id, owner)

    def lagging(self, battle_ids: Sequence[str]) -> list[str]:
        return [
            battle_id for battle_id in battle_ids if self.projected_version(battle_id) < self._head(battle_id)
        ]

    def _head(self, battle_id: str) -> int:
        try:
            return self.head(battle_id).version
        except UnknownBattle:  # listed in the index but its log is gone: nothing to fold
            return 0
