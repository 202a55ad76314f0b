"""Per-process memory of each battle's `battle_created` entry: its ruleset and options never change."""

from __future__ import annotations

import threading

from eventstore.errors import UnknownBattle
from eventstore.records import StoredEntry
from eventstore.roles import Log


class BattleCache:
    """Lets a command cost no extra read to find its battle's ruleset; bounded, oldest first out."""

    def __init__(self, store: Log, size: int) -> None:
        self._store = store
        self._size = size
        self._created: dict[str, StoredEntry] = {}
        self._lock = threading.Lock()

    def created(self, battle_id: str) -> StoredEntry:
        """Version 1 of the battle; UnknownBattle if there is no such battle."""
        hit = self._created.get(battle_id)
        if hit is not None:
            return hit
        entry = self._store.entry(battle_id, 1)
        if entry is None:
            raise UnknownBattle(battle_id)
        with self._lock:
            if len(self._created) >= self._size:
                self._created.pop(next(iter(self._created)))
            self._created[battle_id] = entry
        return entry

    def ruleset_of(self, battle_id: str) -> str:
        return str(self.created(battle_id).data["ruleset"])
