"""Coalesced projection: a job drains the pending set in rounds, each battle under its lock."""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import chain

from eventstore.errors import UnknownBattle
from eventstore.paging import BATCH, history
from eventstore.records import FoldStart
from eventstore.roles import Folds, Log, Schedule
from replay.folds import UnsupportedRules
from workers.projection import WRITE_EVERY_S, Folded, Unsaved, decoded, fold_unsaved

TAKE = 64  # battles popped from the pending set per round
# a SIGKILLed folder blocks its battle at most this long; its owner renews it at every write of a fold
# (projection.WRITE_EVERY_S, five times as often), so a live fold never loses it
LOCK_TTL_MS = 1_000
BUDGET_S = 60.0  # a drain that never sees an empty set hands off to a fresh job before RQ's timeout
BUSY_PAUSE_S = 0.02  # a round in which every battle was locked by another folder waits this long
LINGER_S = 0.25  # an idle drain waits this long for new pending battles before its job ends
IDLE_POLL_S = 0.002  # an SPOP this often while lingering: a command landing then waits 1 ms on average
log = logging.getLogger("siege.projection")
_told: set[str] = set()  # battles of other rules this process has logged as not projected


@dataclass(frozen=True, slots=True, kw_only=True)
class Drained:
    rounds: int = 0
    battles: int = 0
    entries: int = 0
    busy: int = 0
    failed: int = 0
    unsupported: int = 0  # battles of rules this release does not fold: refused, nothing written
    handed_off: bool = False


def drain_pending(
    store: Log,
    folds: Folds,
    schedule: Schedule,
    *,
    requeue: Callable[[], None],
    folded: Callable[[list[str]], None] | None = None,
    owner: str = "",
    take: int = TAKE,
    budget_s: float = BUDGET_S,
    linger_s: float = LINGER_S,
) -> Drained:
    """Fold pending battles in rounds until none is left; a battle locked by another folder goes back.
    `folded(battles)` runs after each round whose folds wrote outcomes, with those battles, their locks
    released (the webhooks' wake)."""
    owner = owner or folder_name("drain")
    deadline = time.monotonic() + budget_s
    done = Drained()
    schedule.clear_scheduled()  # first: a mark landing after this schedules the next job, none is lost
    while True:
        taken = _take(schedule, take, linger_s)
        if not taken:
            return done
        done = _round(store, folds, schedule, taken, owner, done, folded)
        if time.monotonic() > deadline:
            requeue()  # the set may never empty under load: a fresh job carries on
            return replace(done, handed_off=True)


def _take(store: Schedule, take: int, linger_s: float) -> list[str]:
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
    store: Log,
    folds: Folds,
    schedule: Schedule,
    taken: list[str],
    owner: str,
    done: Drained,
    after: Callable[[list[str]], None] | None = None,
) -> Drained:
    """The round's battles locked and read in one call, folded one after another, saved and unlocked in
    one call: with many battles a fold has about one new entry, and round trips, not rules, were its cost."""
    try:
        starts = folds.begin_folds(taken, owner, LOCK_TTL_MS, limit=BATCH)
    except Exception as error:  # any lock taken lapses, and the reconciler re-marks what was not folded
        if len(taken) > 1:  # one store node failing (a cluster's master) must hold back its battles only
            log.warning("could not start folding %d battles together (%s): one by one", len(taken), error)
            for battle_id in taken:
                done = _round(store, folds, schedule, [battle_id], owner, done, after)
            return done
        log.exception("could not start folding battle %s", taken[0])
        return replace(done, rounds=done.rounds + 1, failed=done.failed + len(taken))
    started = dict(zip(taken, starts, strict=True))
    busy = [battle_id for battle_id, start in started.items() if start is None]
    held = {battle_id: start for battle_id, start in started.items() if start is not None}
    leases = _Leases(folds, owner, list(held))
    refused: list[str] = []
    unsaved = {b: _fold(store, folds, b, start, leases.renew, refused) for b, start in held.items()}
    written = _finish(folds, owner, unsaved)
    moved = [fold.battle_id for fold in written if fold.to_version > fold.from_version]
    if after is not None and moved:
        after(moved)
    schedule.mark_pending_again(busy)
    if len(busy) == len(taken):
        time.sleep(BUSY_PAUSE_S)  # everyone else's: give their folders a moment instead of spinning
    return Drained(
        rounds=done.rounds + 1,
        battles=done.battles + len(written),
        entries=done.entries + sum(f.to_version - f.from_version for f in written),
        busy=done.busy + len(busy),
        failed=done.failed + len(taken) - len(written) - len(busy) - len(refused),
        unsupported=done.unsupported + len(refused),
    )


def _fold(
    store: Log,
    folds: Folds,
    battle_id: str,
    start: FoldStart,
    keep_alive: Callable[[], None],
    refused: list[str],
) -> Unsaved | None:
    """One battle's fold from what the round read; None when it cannot be folded (added to `refused` when
    its rules are not this release's: the reconciler offers it again, to whichever release folds them)."""
    try:
        if start.projection is None and not start.entries:
            raise UnknownBattle(battle_id)  # every battle's log starts with its creation
        after = start.entries[-1].version if start.entries else 0
        more = history(store, battle_id, after=after, read_ahead=True) if len(start.entries) >= BATCH else ()
        saved = decoded(battle_id, start.projection)
        fold = fold_unsaved(store, folds, battle_id, saved, chain(start.entries, more), keep_alive=keep_alive)
    except UnsupportedRules as refusal:
        if battle_id not in _told:  # said once a process: the reconciler offers it again every pass
            _told.add(battle_id)
            log.error("%s: not projected, no outcome written", refusal)
        refused.append(battle_id)
        return None
    except Exception:  # a battle that cannot be folded must not hold back the rest; the reconciler retries it
        log.exception("could not fold battle %s", battle_id)
        return None
    keep_alive()  # between two battles too: a round of long folds must not outlive its locks
    return fold


def _finish(store: Folds, owner: str, unsaved: dict[str, Unsaved | None]) -> list[Folded]:
    """Every last write of the round and every unlock, in one call; the folds that ran to the end."""
    try:
        saved = store.finish_folds(owner, [(b, fold.write if fold else None) for b, fold in unsaved.items()])
    except (
        Exception
    ) as error:  # what was not written is folded again: the reconciler re-marks lagging battles
        if len(unsaved) > 1:  # as in _round: the battles of the other nodes are saved on their own
            log.warning(
                "could not save the folds of %d battles together (%s): one by one", len(unsaved), error
            )
            return [fold for b, one in unsaved.items() for fold in _finish(store, owner, {b: one})]
        log.exception("could not save the fold of battle %s", next(iter(unsaved)))
        return []
    return [fold.settle(ok) for fold, ok in zip(unsaved.values(), saved, strict=True) if fold is not None]


class _Leases:
    """The round's fold locks, renewed every WRITE_EVERY_S while its battles are folded one after another."""

    def __init__(self, store: Folds, owner: str, battle_ids: list[str]) -> None:
        self._store, self._owner, self._battle_ids = store, owner, battle_ids
        self._due = time.monotonic() + WRITE_EVERY_S

    def renew(self) -> None:
        if time.monotonic() < self._due:
            return
        for battle_id in self._battle_ids:
            renew_lock(self._store, battle_id, self._owner)
        self._due = time.monotonic() + WRITE_EVERY_S


def folder_name(kind: str) -> str:
    """A lock owner unique to this job run, readable in `GET siege:{B}:lock` when debugging."""
    return f"{kind}:{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def renew_lock(store: Folds, battle_id: str, owner: str) -> None:
    """Restart the lock's TTL between two batches: the lock outlives a fold of any length, and still
    lapses soon after a crash."""
    store.try_lock(battle_id, owner, LOCK_TTL_MS)
