"""Coalesced projection: a job drains the pending set in rounds, each battle under its lock (DESIGN §6)."""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Literal

from eventstore.protocol import EventStore
from workers.projection import Folded, project_battle

TAKE = 64  # battles popped from the pending set per round
# a SIGKILLed folder blocks its battle at most this long; its owner renews it at every write of a fold
# (projection.WRITE_EVERY_S, five times as often), so a live fold never loses it
LOCK_TTL_MS = 1_000
BUDGET_S = 60.0  # a drain that never sees an empty set hands off to a fresh job before RQ's timeout
BUSY_PAUSE_S = 0.02  # a round in which every battle was locked by another folder waits this long
LINGER_S = 0.25  # an idle drain waits this long for new pending battles before its job ends
IDLE_POLL_S = 0.002  # an SPOP this often while lingering: a command landing then waits 1 ms on average
# battles of one round folded side by side: each fold's lock, save and unlock wait on Redis (an fsync each
# when durable), and Redis fsyncs the writes of one event-loop turn together, so their waits overlap
FOLDERS = 8
_folders = ThreadPoolExecutor(FOLDERS, thread_name_prefix="fold")
log = logging.getLogger("siege.projection")


@dataclass(frozen=True, slots=True, kw_only=True)
class Drained:
    rounds: int = 0
    battles: int = 0
    entries: int = 0
    busy: int = 0
    failed: int = 0
    handed_off: bool = False


def drain_pending(
    store: EventStore,
    *,
    requeue: Callable[[], None],
    folded: Callable[[str], None] | None = None,
    owner: str = "",
    take: int = TAKE,
    budget_s: float = BUDGET_S,
    linger_s: float = LINGER_S,
) -> Drained:
    """Fold pending battles in rounds until none is left; a battle locked by another folder goes back.
    `folded(battle)` runs after a battle's fold wrote outcomes (the webhooks' wake), its lock released."""
    owner = owner or folder_name("drain")
    deadline = time.monotonic() + budget_s
    done = Drained()
    store.clear_scheduled()  # first: a mark landing after this schedules the next job, none is lost
    while True:
        taken = _take(store, take, linger_s)
        if not taken:
            return done
        done = _round(store, taken, owner, done, folded)
        if time.monotonic() > deadline:
            requeue()  # the set may never empty under load: a fresh job carries on
            return replace(done, handed_off=True)


def _take(store: EventStore, take: int, linger_s: float) -> list[str]:
    """The next battles; an empty set is watched a moment before giving up, since under load more come
    at once and a running job costs far less than starting another one."""
    idle_until = time.monotonic() + linger_s
    while not (taken := store.take_pending(take)) and time.monotonic() < idle_until:
        time.sleep(IDLE_POLL_S)
    if not taken:
        store.clear_scheduled()  # our own re-marks may have set it; anything marked from here on
        taken = store.take_pending(take)  # gets a job of its own, anything marked before is taken here
    return taken


def _round(
    store: EventStore,
    taken: list[str],
    owner: str,
    done: Drained,
    after: Callable[[str], None] | None = None,
) -> Drained:
    folded = dict(zip(taken, _folders.map(lambda b: _fold_if_free(store, b, owner), taken), strict=True))
    busy = [b for b, f in folded.items() if f == "busy"]
    for battle_id, fold in folded.items():
        if after is not None and isinstance(fold, Folded) and fold.to_version > fold.from_version:
            after(battle_id)
    for battle_id in busy:
        store.mark_pending(battle_id)
    if len(busy) == len(taken):
        time.sleep(BUSY_PAUSE_S)  # everyone else's: give their folders a moment instead of spinning
    written = [f for f in folded.values() if isinstance(f, Folded)]
    return Drained(
        rounds=done.rounds + 1,
        battles=done.battles + len(written),
        entries=done.entries + sum(f.to_version - f.from_version for f in written),
        busy=done.busy + len(busy),
        failed=done.failed + len(taken) - len(written) - len(busy),
    )


def folder_name(kind: str) -> str:
    """A lock owner unique to this job run, readable in `GET siege:{B}:lock` when debugging."""
    return f"{kind}:{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def renew_lock(store: EventStore, battle_id: str, owner: str) -> None:
    """Restart the lock's TTL between two batches: the lock outlives a fold of any length, and still
    lapses soon after a crash."""
    store.try_lock(battle_id, owner, LOCK_TTL_MS)


def _fold_if_free(store: EventStore, battle_id: str, owner: str) -> Folded | Literal["busy", "failed"]:
    if not store.try_lock(battle_id, owner, LOCK_TTL_MS):
        return "busy"
    try:
        return project_battle(store, battle_id, keep_alive=lambda: renew_lock(store, battle_id, owner))
    except Exception:  # a battle that cannot be folded must not hold back the rest; the reconciler retries it
        log.exception("could not fold battle %s", battle_id)
        return "failed"
    finally:
        store.unlock(battle_id, owner)
