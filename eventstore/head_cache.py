"""The in-process guess of each battle's log head, so the common append is one round trip."""

from __future__ import annotations

import threading

from eventstore.records import Head

UNKNOWN = Head(version=-1, hash="")  # never matches a real head: the append script answers with the real one


class HeadCache:
    """A bounded, thread-safe map battle → last head seen; a stale entry only costs one retry."""

    def __init__(self, max_size: int = 100_000) -> None:
        self._heads: dict[str, Head] = {}
        self._max_size = max_size
        self._lock = threading.Lock()

    def get(self, battle_id: str) -> Head:
        return self._heads.get(battle_id, UNKNOWN)

    def put(self, battle_id: str, head: Head) -> None:
        with self._lock:
            # Last writer wins even if older: store answers are authoritative (a battle may be recreated).
            known = self._heads.pop(battle_id, None)
            if known is None and len(self._heads) >= self._max_size:
                del self._heads[next(iter(self._heads))]  # drop the least recently written battle
            self._heads[battle_id] = head

    def drop(self, battle_id: str) -> None:
        with self._lock:
            self._heads.pop(battle_id, None)
