"""Coalesced projection scheduling and fold locks in process memory, with Redis's expiry semantics."""

from __future__ import annotations

import threading
import time

from eventstore.protocol import SCHEDULED_TTL_S


class MemorySchedule:
    def __init__(self, *, scheduled_ttl_s: float = SCHEDULED_TTL_S) -> None:
        self._schedule_lock = threading.Lock()
        self._pending: set[str] = set()
        self._scheduled_until = 0.0
        self._scheduled_ttl_s = scheduled_ttl_s
        self._locks: dict[str, tuple[str, float]] = {}

    def mark_pending(self, battle_id: str) -> bool:
        with self._schedule_lock:
            self._pending.add(battle_id)
            now = time.monotonic()
            if self._scheduled_until > now:
                return False
            self._scheduled_until = now + self._scheduled_ttl_s
            return True

    def take_pending(self, count: int) -> list[str]:
        with self._schedule_lock:
            return [self._pending.pop() for _ in range(min(max(count, 0), len(self._pending)))]

    def clear_scheduled(self) -> None:
        with self._schedule_lock:
            self._scheduled_until = 0.0

    def try_lock(self, battle_id: str, owner: str, ttl_ms: int) -> bool:
        with self._schedule_lock:
            now = time.monotonic()
            holder = self._locks.get(battle_id)
            if holder is not None and holder[1] > now and holder[0] != owner:
                return False
            self._locks[battle_id] = (owner, now + ttl_ms / 1000)
            return True

    def unlock(self, battle_id: str, owner: str) -> None:
        with self._schedule_lock:
            holder = self._locks.get(battle_id)
            if holder is not None and holder[0] == owner:
                del self._locks[battle_id]
