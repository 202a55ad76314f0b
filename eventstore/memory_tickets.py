"""Stream tickets in process memory: per battle, digest → (record, deadline), taken once."""

from __future__ import annotations

import threading
import time

from eventstore.records import TicketRecord


class MemoryTickets:
    def __init__(self) -> None:
        self._tickets_lock = threading.Lock()
        self._tickets: dict[tuple[str, str], tuple[TicketRecord, float]] = {}

    def add_ticket(self, battle_id: str, ticket: TicketRecord, ttl_s: float) -> None:
        now = time.monotonic()
        with self._tickets_lock:
            self._tickets = {k: held for k, held in self._tickets.items() if held[1] > now}  # prune
            self._tickets[(battle_id, ticket.digest)] = (ticket, now + ttl_s)

    def take_ticket(self, battle_id: str, digest: str) -> TicketRecord | None:
        with self._tickets_lock:
            held = self._tickets.pop((battle_id, digest), None)
        return held[0] if held is not None and held[1] > time.monotonic() else None
