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
from eventstore.roles.folds import SaveSent
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
    `keep_alive` runs after every batch written, at least every WRITE_EVERY_S: a fold renews its lock there,
    so a lock can live a few times that long and still outlast a fold of any length."""
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
    start = written = saved.version if saved else 0
    last: Battle[Any] | None = None
    outcomes: list[tuple[int, str]] = []
    snapshots: list[Projection] = []
    tally = FoldTally()
    entries = tally.watch(new_entries)
    sending: Sending | None = None
    try:
        for battle, outcome in fold_entries(store, folds, battle_id, saved, entries):
            last = battle
            tally.folded(battle.ruleset, outcome)
            outcomes.append((battle.version, canonical_json(outcome)))
            if battle.version % snapshot_every == 0:
                state = canonical_json(encode_battle(battle))
                snapshots.append(Projection(version=battle.version, state=state))
            if len(outcomes) >= BATCH or time.monotonic() >= write_by:
                if sending is not None:
                    if not sending.stored(battle_id, keep_alive):
                        return _guarded_out(battle_id, start, written, last, tally)
                    written = sending.battle.version
                sending = Sending.send(folds, battle_id, battle, outcomes, snapshots, tally.seal())
                outcomes, snapshots = [], []
                write_by = time.monotonic() + WRITE_EVERY_S
        if sending is not None:
            if not sending.stored(battle_id, keep_alive):
                return _guarded_out(battle_id, start, written, last, tally)
            written = sending.battle.version
    finally:
        if sending is not None:
            sending.sent.drop()  # unanswered only when the fold raised: its reply must not be read later
    write = None
    if last is not None and outcomes:
        write = FoldSave(state=_state(last), outcomes=outcomes, snapshots=snapshots)
    return Unsaved(
        battle_id=battle_id, from_version=start, written=written, last=last, write=write, tally=tally
    )


def _guarded_out(
    battle_id: str, start: int, written: int, last: Battle[Any] | None, tally: FoldTally
) -> Unsaved:
    # another folder got there first: its writes stand, ours would repeat them
    return Unsaved(
        battle_id=battle_id, from_version=start, written=written, last=last, write=None, tally=tally
    )


@dataclass(frozen=True, slots=True)
class Sending:
    """A batch's write in flight, with what its being stored updates: the state this process remembers,
    the batch's tally, the fold's lock."""

    sent: SaveSent
    battle: Battle[Any]
    state: Projection
    report: Callable[[], None]

    @classmethod
    def send(
        cls,
        folds: Folds,
        battle_id: str,
        battle: Battle[Any],
        outcomes: list[tuple[int, str]],
        snapshots: list[Projection],
        report: Callable[[], None],
    ) -> Sending:
        state = _state(battle)
        sent = folds.send_projection(battle_id, state=state, outcomes=outcomes, snapshots=snapshots)
        return cls(sent=sent, battle=battle, state=state, report=report)

    def stored(self, battle_id: str, keep_alive: Callable[[], None] | None) -> bool:
        """Whether the write was stored (False: guarded out), once its answer is in."""
        if not self.sent.answer():
            return False
        _remember(_states, battle_id, (self.state.state, self.battle), STATE_CACHE)
        self.report()
        if keep_alive is not None:
            keep_alive()
        return True


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
