"""Coalesced projection scheduling in process memory, with Redis's expiry semantics."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from eventstore.roles.schedule import SCHEDULED_TTL_S


class MemorySchedule:
    def __init__(self, *, scheduled_ttl_s: float = SCHEDULED_TTL_S) -> None:
        self._schedule_lock = threading.Lock()
        self._pending: set[str] = set()
        self._scheduled_until = 0.0
        self._scheduled_ttl_s = scheduled_ttl_s

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

    def mark_pending_again(self, battle_ids: Sequence[str]) -> bool:
        return any([self.mark_pending(battle_id) for battle_id in battle_ids])
