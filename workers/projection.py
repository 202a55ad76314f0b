"""Bring a battle's projection up to its log: fold its unprojected entries (replay/folds.py), then write the
state, outcomes and snapshots in batches, each write guarded by the version it moves from."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from eventstore.canonical import canonical_json, loads
from eventstore.paging import history
from eventstore.records import FoldSave, Projection, StoredEntry
from eventstore.roles import Folds, Log
from eventstore.roles.folds import SaveInFlight
from replay.folds import fold_entries
from rules.fold import Battle, decode_battle, encode_battle
from workers.measure import FoldTally

BATCH = 500  # entries folded between two atomic writes of state + outcomes
WRITE_EVERY_S = 0.2  # ... or fewer, when folding them takes longer: a fold renews its lock at every write
SNAPSHOT_EVERY = 256  # versions between snapshots: bounds the fold behind `GET state?at=v`
STATE_CACHE = 1024  # battles whose decoded state one worker process keeps between folds

T = TypeVar("T")
_states: dict[str, tuple[str, Battle[Any]]] = {}  # battle -> (the stored state JSON, that state decoded)


@dataclass(frozen=True, slots=True, kw_only=True)
class Folded:
    """What one call wrote: the projection moved from `from_version` to `to_version`."""

    battle_id: str
    from_version: int
    to_version: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Unsaved:
    """A fold whose last write is still to be made: a drain makes a whole round's in one call."""

    battle_id: str
    from_version: int
    written: int  # what the fold's own writes (one per BATCH) stored so far
    last: Battle[Any] | None
    write: FoldSave | None  # None: nothing left to write, or another folder got there first
    tally: FoldTally

    def settle(self, saved: bool) -> Folded:
        """Once `write` was stored (saved) or guarded out."""
        if saved and self.write is not None and self.last is not None:
            _remember(_states, self.battle_id, (self.write.state.state, self.last), STATE_CACHE)
            self.tally.written()
            return Folded(
                battle_id=self.battle_id, from_version=self.from_version, to_version=self.last.version
            )
        return Folded(battle_id=self.battle_id, from_version=self.from_version, to_version=self.written)


def project_battle(
    store: Log,
    folds: Folds,
    battle_id: str,
    *,
    snapshot_every: int = SNAPSHOT_EVERY,
    keep_alive: Callable[[], None] | None = None,
) -> Folded:
    """Bring one battle's projection up to its log head; safe to run twice (the store guards versions).
    `keep_alive` runs as every batch's write is sent, at least every WRITE_EVERY_S: a fold renews its lock
    there, so a lock can live a few times that long and still outlast a fold of any length."""
    saved = load_projection(folds, battle_id)
    entries = history(store, battle_id, after=saved.version if saved else 0, read_ahead=True)
    fold = fold_unsaved(
        store, folds, battle_id, saved, entries, snapshot_every=snapshot_every, keep_alive=keep_alive
    )
    return fold.settle(fold.write is not None and _store(folds, battle_id, fold.write))


def fold_unsaved(
    store: Log,
    folds: Folds,
    battle_id: str,
    saved: Battle[Any] | None,
    new_entries: Iterable[StoredEntry],
    *,
    snapshot_every: int = SNAPSHOT_EVERY,
    keep_alive: Callable[[], None] | None = None,
) -> Unsaved:
    """Fold the entries after `saved` onto it, writing every BATCH (or WRITE_EVERY_S) on the way, all but
    the last write: that one is the caller's (`Unsaved.write`, then `settle`). Each write is sent when its
    batch is folded and answered once the next one is: the store writes while the fold goes on."""
    write_by = time.monotonic() + WRITE_EVERY_S
    start = saved.version if saved else 0
    last: Battle[Any] | None = None
    outcomes: list[tuple[int, str]] = []
    snapshots: list[Projection] = []
    tally = FoldTally()
    writes = Writes(folds, battle_id, start, keep_alive)
    try:
        for battle, outcome in fold_entries(store, folds, battle_id, saved, tally.watch(new_entries)):
            last = battle
            tally.folded(battle.ruleset, outcome)
            outcomes.append((battle.version, canonical_json(outcome)))
            if battle.version % snapshot_every == 0:
                state = canonical_json(encode_battle(battle))
                snapshots.append(Projection(version=battle.version, state=state))
            if len(outcomes) >= BATCH or time.monotonic() >= write_by:
                if not writes.send(battle, outcomes, snapshots, tally.seal()):
                    break
                outcomes, snapshots = [], []
                write_by = time.monotonic() + WRITE_EVERY_S
        else:
            writes.settle()
    except BaseException as error:
        writes.abandon(settle=isinstance(error, Exception))  # an interrupt reads no reply
        raise
    if writes.guarded_out:  # another folder got there first: its writes stand, ours would repeat them
        outcomes = []
    write = None
    if last is not None and outcomes:
        write = FoldSave(state=_state(last), outcomes=outcomes, snapshots=snapshots)
    return Unsaved(
        battle_id=battle_id, from_version=start, written=writes.written, last=last, write=write, tally=tally
    )


@dataclass(frozen=True, slots=True)
class WriteInFlight:
    """A batch's write sent, with what its being stored updates: the state this process remembers, the
    batch's tally."""

    sent: SaveInFlight
    battle: Battle[Any]
    state: Projection
    report: Callable[[], None]


class Writes:
    """A fold's writes, one in flight at a time: each answered before the next is sent, the lock renewed
    as each is sent."""

    def __init__(
        self, folds: Folds, battle_id: str, written: int, keep_alive: Callable[[], None] | None
    ) -> None:
        self.written = written  # the version the fold's stored writes reached
        self.guarded_out = False
        self._folds, self._battle_id, self._keep_alive = folds, battle_id, keep_alive
        self._in_flight: WriteInFlight | None = None

    def send(
        self,
        battle: Battle[Any],
        outcomes: list[tuple[int, str]],
        snapshots: list[Projection],
        report: Callable[[], None],
    ) -> bool:
        """Send this batch's write once the one before is stored; False (nothing sent) when that one was
        guarded out."""
        if not self.settle():
            return False
        state = _state(battle)
        sent = self._folds.send_projection(
            self._battle_id, state=state, outcomes=outcomes, snapshots=snapshots
        )
        self._in_flight = WriteInFlight(sent=sent, battle=battle, state=state, report=report)
        if self._keep_alive is not None:
            self._keep_alive()
        return True

    def settle(self) -> bool:
        """Whether the write in flight, if any, was stored, once its answer is in."""
        in_flight, self._in_flight = self._in_flight, None
        if in_flight is None:
            return not self.guarded_out
        if not in_flight.sent.answer():
            self.guarded_out = True
            return False
        _remember(_states, self._battle_id, (in_flight.state.state, in_flight.battle), STATE_CACHE)
        in_flight.report()
        self.written = in_flight.battle.version
        return True

    def abandon(self, *, settle: bool) -> None:
        """The fold raised. A write it sent ran in the store all the same: `settle` it when its answer can
        be read (its commands counted, its state remembered), else drop it, so no later caller reads it."""
        in_flight = self._in_flight
        if in_flight is None:
            return
        if settle:
            try:
                self.settle()
                return
            except Exception:  # the fold's own error is the one to raise
                pass
        in_flight.sent.drop()


def load_projection(store: Folds, battle_id: str) -> Battle[Any] | None:
    """The stored state, decoded; decoding costs more than folding a command, so when the stored JSON is
    the very one this process last read or wrote, its decoded form is reused."""
    return decoded(battle_id, store.projection(battle_id))


def decoded(battle_id: str, saved: Projection | None) -> Battle[Any] | None:
    """A stored projection decoded, or the very state this process last read or wrote when it is that one."""
    if saved is None:
        return None
    known = _states.get(battle_id)
    if known is not None and known[0] == saved.state:
        return known[1]
    battle = decode_battle(loads(saved.state))
    _remember(_states, battle_id, (saved.state, battle), STATE_CACHE)
    return battle


def _store(store: Folds, battle_id: str, write: FoldSave) -> bool:
    return store.save_projection(
        battle_id, state=write.state, outcomes=write.outcomes, snapshots=write.snapshots
    )


def _state(battle: Battle[Any]) -> Projection:
    return Projection(version=battle.version, state=canonical_json(encode_battle(battle)))


def _remember(cache: dict[str, T], key: str, value: T, limit: int) -> None:
    cache.pop(key, None)  # re-inserted last: the oldest entry is the least recently stored
    if len(cache) >= limit:
        del cache[next(iter(cache))]
    cache[key] = value
