"""The per-process stream reader: one thread follows the outcomes of every battle some stream or
`Prefer: wait` answer of this process watches (one blocking read for all of them,
Follow.follow_outcomes), hands each batch to those streams' subscriptions and each awaited outcome to
its waiters, so neither a stream nor a waiter reads the store on its own.

It starts with the first subscription or waiter (no thread and no I/O before), outlives store outages (it
retries from the last version it read of each battle; a waiter is let go at once, to answer 202), and a
forked child starts afresh rather than inherit a parent's thread and lock. A battle is read while some
stream or waiter watches it, no longer: each key in the one read costs the store on every read (measured:
keeping battles watched 30 s after their last waiter cost the store more CPU than interrupting the read)."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import weakref
from dataclasses import dataclass, field

from eventstore.roles import Follow, Log
from service.streams.subscriptions import Delivered, StreamsFull, Subscription, delivered
from telemetry.metrics import STREAMS_OPEN

log = logging.getLogger(__name__)
_hubs: weakref.WeakSet[Hub] = weakref.WeakSet()  # this process's, for close_all at shutdown
BLOCK_S = 0.25  # one read's wait; a battle first watched interrupts it
RETRY_FIRST_S, RETRY_MAX_S = 0.5, 5.0  # while the store does not answer, reads back off between these


class Waiter:
    """One `Prefer: wait` answer: the outcome of one version, handed over once the reader reads it."""

    def __init__(self, battle_id: str, version: int) -> None:
        self.battle_id = battle_id
        self.version = version
        self._settled = threading.Event()
        self._outcome: str | None = None

    def settle(self, outcome: str | None) -> None:
        self._outcome = outcome
        self._settled.set()

    def wait(self, timeout_s: float) -> str | None:
        self._settled.wait(max(timeout_s, 0))
        return self._outcome


@dataclass(slots=True)
class _Watched:
    cursor: int  # the last version read of this battle (lowered when a waiter needs an earlier one)
    subscribers: set[Subscription] = field(default_factory=set)
    waiters: dict[int, list[Waiter]] = field(default_factory=dict)  # by the version each awaits

    def idle(self) -> bool:
        return not self.subscribers and not self.waiters


class Hub:
    def __init__(
        self,
        store: Log,
        follow: Follow,
        *,
        max_streams: int,
        per_battle: int | None = None,
        per_token: int | None = None,
        block_s: float = BLOCK_S,
    ) -> None:
        """`per_battle`, `per_token`: fair shares of `max_streams`, so no battle and no token (one observer
        opening a hundred) takes every stream the process has; None: no share but the process's cap."""
        self._store = store
        self._follow = follow
        self._max_streams = max_streams
        self._per_battle = max_streams if per_battle is None else per_battle
        self._per_token = max_streams if per_token is None else per_token
        self._block_s = block_s
        self._reset()
        _hubs.add(self)

    def _reset(self) -> None:
        self._pid = os.getpid()
        self._changed = threading.Condition()
        self._watched: dict[str, _Watched] = {}
        self._open = 0
        self._held: dict[str, int] = {}  # open streams by the token that opened them
        self._thread: threading.Thread | None = None
        # monotonic: till then (the reader's backoff after a failed read) waiters answer 202
        self._let_go_until = 0.0
        self._closing = False  # the process is stopping: streams end, waits answer 202, the reader stops

    @property
    def open_streams(self) -> int:
        return self._open

    @property
    def waiting(self) -> int:
        with self._changed:
            return sum(len(w) for watched in self._watched.values() for w in watched.waiters.values())

    @property
    def watched(self) -> set[str]:
        with self._changed:
            return set(self._watched)

    def _here(self) -> None:
        if self._pid != os.getpid():
            self._reset()  # forked: the parent's thread is not here and its lock may be held

    def subscribe(self, battle_id: str, holder: str = "") -> Subscription:
        """A new subscription; StreamsFull past a cap. Its first outcome is the first the store writes
        after this call (or lands in the store before, for the stream's own catch-up read)."""
        self._here()
        with self._changed:
            self._check_caps(battle_id, holder)
        cursor = None if battle_id in self._watched else self._store.projected_version(battle_id)
        subscription = Subscription(battle_id, holder=holder)
        with self._changed:
            self._check_caps(battle_id, holder)
            watched = self._watched.get(battle_id)
            fresh = watched is None  # the read in flight does not watch it
            if watched is None:
                if cursor is None:  # unwatched since the look above: read the head under the lock
                    cursor = self._store.projected_version(battle_id)
                watched = self._watched[battle_id] = _Watched(cursor=cursor)
            watched.subscribers.add(subscription)
            self._open += 1
            if holder:
                self._held[holder] = self._held.get(holder, 0) + 1
            STREAMS_OPEN.inc()
            self._start()
            self._changed.notify_all()
        if fresh:
            try:
                self._follow.interrupt_follow()
            except BaseException:
                self.unsubscribe(subscription)
                raise
        return subscription

    def _check_caps(self, battle_id: str, holder: str) -> None:
        if self._open >= self._max_streams or self._closing:
            raise StreamsFull("process", self._max_streams)
        watched = self._watched.get(battle_id)
        if watched is not None and len(watched.subscribers) >= self._per_battle:
            raise StreamsFull("battle", self._per_battle)
        if holder and self._held.get(holder, 0) >= self._per_token:
            raise StreamsFull("token", self._per_token)

    def unsubscribe(self, subscription: Subscription) -> None:
        """Idempotent: a stream releases its subscription when it ends and when its client goes."""
        with self._changed:
            watched = self._watched.get(subscription.battle_id)
            if watched is None or subscription not in watched.subscribers:
                return
            watched.subscribers.discard(subscription)
            self._drop_if_idle(subscription.battle_id)
            self._open -= 1
            if subscription.holder:
                left = self._held.pop(subscription.holder, 1) - 1
                if left:
                    self._held[subscription.holder] = left
            STREAMS_OPEN.dec()

    def wait_outcome(self, battle_id: str, version: int, timeout_s: float) -> str | None:
        """The outcome of `version` once the reader reads it; None past timeout_s, or at once while the
        store fails. The battle is read from version - 1 on, so an outcome already written is found too."""
        self._here()
        waiter = Waiter(battle_id, version)
        with self._changed:
            if self._closing or time.monotonic() < self._let_go_until:
                return None
            watched = self._watched.get(battle_id)
            behind = watched is None or watched.cursor >= version  # the read in flight will not see it
            if watched is None:
                watched = self._watched[battle_id] = _Watched(cursor=version - 1)
            watched.cursor = min(watched.cursor, version - 1)
            watched.waiters.setdefault(version, []).append(waiter)
            self._start()
            self._changed.notify_all()
        try:
            if behind:
                self._follow.interrupt_follow()
            return waiter.wait(timeout_s)
        finally:
            self._leave(waiter)

    def _leave(self, waiter: Waiter) -> None:
        with self._changed:
            watched = self._watched.get(waiter.battle_id)
            if watched is None:
                return
            waiting = watched.waiters.get(waiter.version, [])
            if waiter in waiting:
                waiting.remove(waiter)
                if not waiting:
                    del watched.waiters[waiter.version]
            self._drop_if_idle(waiter.battle_id)

    def _drop_if_idle(self, battle_id: str) -> None:
        """Under the lock: a battle nobody watches is read no more (a read in flight may still return it)."""
        watched = self._watched.get(battle_id)
        if watched is not None and watched.idle():
            del self._watched[battle_id]

    def close(self) -> None:
        """The process is stopping: open streams end now (their clients reconnect to another process with
        Last-Event-ID) rather than hold the worker for gunicorn's whole graceful timeout; waits answer 202;
        the reader stops. For good: a closed hub takes no stream and no waiter."""
        with self._changed:
            self._closing = True
            for watched in self._watched.values():
                for subscription in watched.subscribers:
                    subscription.close()
            self._release_waiters()
            self._changed.notify_all()
        if self._thread is not None:
            with contextlib.suppress(Exception):  # best effort: the reader ends after its read anyway
                self._follow.interrupt_follow()

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="siege-stream-hub", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        pause = RETRY_FIRST_S
        while True:
            watching = self._watch_list()
            if watching is None:
                return  # closed
            cursors, streamed = watching
            try:
                found = self._follow.follow_outcomes(cursors, self._block_s)
                self._settle(found, streamed)
                batches = {b: delivered(self._store, b, rows) for b, rows in found.items() if b in streamed}
            except Exception as error:  # the store is away (or worse): keep the cursors, retry later
                log.warning("the stream reader could not read the store: %s: %s", type(error).__name__, error)
                self._let_waiters_go(cursors, streamed, pause)
                time.sleep(pause)
                pause = min(pause * 2, RETRY_MAX_S)
                continue
            pause = RETRY_FIRST_S
            self._fan_out(batches)

    def _watch_list(self) -> tuple[dict[str, int], set[str]] | None:
        """Each watched battle's cursor, and those with streams (whose outcomes are read with commands);
        None once the hub is closed."""
        with self._changed:
            self._changed.wait_for(lambda: bool(self._watched) or self._closing)
            if self._closing:
                return None
            cursors = {battle_id: w.cursor for battle_id, w in self._watched.items()}
            return cursors, {battle_id for battle_id, w in self._watched.items() if w.subscribers}

    def _settle(self, found: dict[str, list[tuple[int, str]]], streamed: set[str]) -> None:
        """Hand each waiter its outcome and move each cursor past what was read, under one lock: a waiter
        coming after sees the cursor past its version and has the battle read again."""
        with self._changed:
            for battle_id, rows in found.items():
                watched = self._watched.get(battle_id)
                if watched is None or not rows:
                    continue
                for version, outcome in rows:
                    for waiter in watched.waiters.pop(version, ()):
                        waiter.settle(outcome)
                # a battle that gained its first stream since the read is read again, for that stream
                if battle_id in streamed or not watched.subscribers:
                    _advance(watched, rows[0][0], rows[-1][0])
                self._drop_if_idle(battle_id)

    def _let_waiters_go(self, cursors: dict[str, int], streamed: set[str], pause_s: float) -> None:
        """While the store fails (the backoff), waiters answer 202; streams are read again from before."""
        with self._changed:
            self._let_go_until = time.monotonic() + pause_s
            for battle_id in streamed:
                if (watched := self._watched.get(battle_id)) is not None:
                    watched.cursor = min(watched.cursor, cursors[battle_id])
            self._release_waiters()

    def _release_waiters(self) -> None:
        """Under the lock: every waiter answers None (its 202); battles only they watched are read no more."""
        for battle_id, watched in list(self._watched.items()):
            for waiting in watched.waiters.values():
                for waiter in waiting:
                    waiter.settle(None)
            watched.waiters.clear()
            self._drop_if_idle(battle_id)

    def _fan_out(self, batches: dict[str, list[Delivered]]) -> None:
        with self._changed:
            for battle_id, items in batches.items():
                watched = self._watched.get(battle_id)
                if watched is None or not items:
                    continue  # its last stream left while the read was out
                for subscription in watched.subscribers:
                    subscription.push(items)


def _advance(watched: _Watched, first: int, last: int) -> None:
    """Past what was read, unless a waiter lowered the cursor below it meanwhile (read from there)."""
    if first <= watched.cursor + 1:
        watched.cursor = max(watched.cursor, last)


def close_all() -> None:
    """Close every hub of this process (gunicorn's SIGTERM, service/gunicorn_conf.py)."""
    for hub in list(_hubs):
        hub.close()
