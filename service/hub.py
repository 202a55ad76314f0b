"""The per-process stream reader: one thread follows the outcomes of every battle some stream of this
process watches (one blocking read for all of them, EventStore.follow_outcomes) and hands each batch to
those streams' subscriptions, so no stream polls the store on its own.

It starts with the first subscription (no thread and no I/O before), outlives store outages (it retries
from the last version it read of each battle), and a forked child starts afresh rather than inherit a
parent's thread and lock."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from eventstore.paging import with_entries
from eventstore.protocol import EventStore
from telemetry.metrics import STREAMS_OPEN

log = logging.getLogger(__name__)
BLOCK_S = 0.25  # one read's wait: a battle first watched while it blocks is read within this long
RETRY_FIRST_S, RETRY_MAX_S = 0.5, 5.0  # while the store does not answer, reads back off between these
BACKLOG = 1000  # outcomes one subscription holds before it is told to read the store itself


@dataclass(frozen=True, slots=True, kw_only=True)
class Delivered:
    """One outcome as read, with its command as logged (the summary needs its ids); `frames` keeps the
    SSE frame rendered per language, so a process renders each outcome once per language."""

    version: int
    outcome: dict[str, Any]
    command: dict[str, Any]
    frames: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class Taken:
    items: list[Delivered]
    behind: bool  # outcomes were dropped (a slow reader): read the store from the last one sent


class StreamsFull(Exception):
    """This process holds its cap of open streams."""


class Subscription:
    """What one stream receives: batches in version order, from the moment it subscribed."""

    def __init__(self, battle_id: str, backlog: int = BACKLOG) -> None:
        self.battle_id = battle_id
        self._backlog = backlog
        self._ready = threading.Condition()
        self._items: list[Delivered] = []
        self._behind = False

    def push(self, items: Sequence[Delivered]) -> None:
        with self._ready:
            if len(self._items) + len(items) > self._backlog:
                self._items, self._behind = [], True
            else:
                self._items.extend(items)
            self._ready.notify()

    def take(self, timeout_s: float) -> Taken:
        """What came since the last take, waiting up to timeout_s for something."""
        with self._ready:
            self._ready.wait_for(lambda: self._items or self._behind, timeout=timeout_s)
            taken = Taken(items=self._items, behind=self._behind)
            self._items, self._behind = [], False
            return taken


@dataclass(slots=True)
class _Watched:
    cursor: int  # the last version read of this battle
    subscribers: set[Subscription]


class Hub:
    def __init__(self, store: EventStore, *, max_streams: int, block_s: float = BLOCK_S) -> None:
        self._store = store
        self._max_streams = max_streams
        self._block_s = block_s
        self._reset()

    def _reset(self) -> None:
        self._pid = os.getpid()
        self._changed = threading.Condition()
        self._watched: dict[str, _Watched] = {}
        self._open = 0
        self._thread: threading.Thread | None = None

    @property
    def open_streams(self) -> int:
        return self._open

    def subscribe(self, battle_id: str) -> Subscription:
        """A new subscription; StreamsFull past the cap. Its first outcome is the first the store writes
        after this call (or lands in the store before, for the stream's own catch-up read)."""
        if self._pid != os.getpid():
            self._reset()  # forked: the parent's thread is not here and its lock may be held
        if self._open >= self._max_streams:
            raise StreamsFull
        cursor = None if battle_id in self._watched else self._store.projected_version(battle_id)
        subscription = Subscription(battle_id)
        with self._changed:
            if self._open >= self._max_streams:
                raise StreamsFull
            watched = self._watched.get(battle_id)
            if watched is None:
                if cursor is None:  # unwatched since the look above: read the head under the lock
                    cursor = self._store.projected_version(battle_id)
                watched = self._watched[battle_id] = _Watched(cursor=cursor, subscribers=set())
            watched.subscribers.add(subscription)
            self._open += 1
            STREAMS_OPEN.inc()
            self._start()
            self._changed.notify_all()
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Idempotent: a stream releases its subscription when it ends and when its client goes."""
        with self._changed:
            watched = self._watched.get(subscription.battle_id)
            if watched is None or subscription not in watched.subscribers:
                return
            watched.subscribers.discard(subscription)
            if not watched.subscribers:
                del self._watched[subscription.battle_id]
            self._open -= 1
            STREAMS_OPEN.dec()

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="siege-stream-hub", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        pause = RETRY_FIRST_S
        while True:
            with self._changed:
                self._changed.wait_for(lambda: bool(self._watched))
                cursors = {battle_id: w.cursor for battle_id, w in self._watched.items()}
            try:
                batches = self._read(cursors)
            except Exception as error:  # the store is away (or worse): keep the cursors, retry later
                log.warning("the stream reader could not read the store: %s: %s", type(error).__name__, error)
                time.sleep(pause)
                pause = min(pause * 2, RETRY_MAX_S)
                continue
            pause = RETRY_FIRST_S
            self._fan_out(batches)

    def _read(self, cursors: dict[str, int]) -> dict[str, list[Delivered]]:
        found = self._store.follow_outcomes(cursors, self._block_s)
        return {battle_id: delivered(self._store, battle_id, rows) for battle_id, rows in found.items()}

    def _fan_out(self, batches: dict[str, list[Delivered]]) -> None:
        with self._changed:
            for battle_id, items in batches.items():
                watched = self._watched.get(battle_id)
                if watched is None or not items:
                    continue  # its last stream left while the read was out
                watched.cursor = max(watched.cursor, items[-1].version)
                for subscription in watched.subscribers:
                    subscription.push(items)


def delivered(store: EventStore, battle_id: str, rows: Sequence[tuple[int, str]]) -> list[Delivered]:
    """Outcomes read from the store (consecutive versions) with their commands, read in one call."""
    return [
        Delivered(version=entry.version, outcome=json.loads(outcome), command=entry.data)
        for entry, outcome in with_entries(store, battle_id, rows)
    ]
