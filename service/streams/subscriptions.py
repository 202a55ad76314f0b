"""What one SSE stream receives from its process's hub (service/streams/hub.py): outcomes as read, with their
commands, in version order; told when it fell too far behind, or when the process is shutting down."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from eventstore.paging import with_entries
from eventstore.roles import Log

BACKLOG = 1000  # outcomes one subscription holds before it is told to read the store itself


@dataclass(frozen=True, slots=True, kw_only=True)
class Delivered:
    """One outcome as read, with its command and actor as logged (the summary needs its ids, hiding its
    sender); `frames` keeps the SSE frame rendered per language and view, so a process renders each outcome
    once per language and view."""

    version: int
    outcome: dict[str, Any]
    command: dict[str, Any]
    actor: str = ""
    frames: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class Taken:
    items: list[Delivered]
    behind: bool  # outcomes were dropped (a slow reader): read the store from the last one sent
    closed: bool = False  # the process is shutting down: end the stream, the client reconnects elsewhere


class StreamsFull(Exception):
    """A cap of open streams is reached in this process: its own (`process`), the battle's or the token's."""

    def __init__(self, kind: str, cap: int) -> None:
        super().__init__(f"{kind}: {cap} streams open")
        self.kind, self.cap = kind, cap


class Subscription:
    """What one stream receives: batches in version order, from the moment it subscribed."""

    def __init__(self, battle_id: str, backlog: int = BACKLOG, holder: str = "") -> None:
        self.battle_id = battle_id
        self.holder = holder  # the digest of the token it was opened with ("" in tests of the hub alone)
        self._backlog = backlog
        self._ready = threading.Condition()
        self._items: list[Delivered] = []
        self._behind = False
        self._closed = False

    def push(self, items: Sequence[Delivered]) -> None:
        with self._ready:
            if len(self._items) + len(items) > self._backlog:
                self._items, self._behind = [], True
            else:
                self._items.extend(items)
            self._ready.notify()

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify()

    def take(self, timeout_s: float) -> Taken:
        """What came since the last take, waiting up to timeout_s for something."""
        with self._ready:
            self._ready.wait_for(lambda: self._items or self._behind or self._closed, timeout=timeout_s)
            taken = Taken(items=self._items, behind=self._behind, closed=self._closed)
            self._items, self._behind = [], False
            return taken


def delivered(store: Log, battle_id: str, rows: Sequence[tuple[int, str]]) -> list[Delivered]:
    """Outcomes read from the store (consecutive versions) with their commands, read in one call."""
    return [
        Delivered(version=entry.version, outcome=json.loads(outcome), command=entry.data, actor=entry.actor)
        for entry, outcome in with_entries(store, battle_id, rows)
    ]
