"""Fold a battle's unprojected log entries into its state, outcomes and snapshots.

A battle pinned to rules this release does not fold (`Ruleset.rules_versions`: a battle a
newer release created in the same store) is refused before its first outcome: `UnsupportedRules`, so no
outcome of other rules is ever written; a release that folds them projects it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from eventstore.canonical import canonical_json, loads
from eventstore.errors import UnknownBattle
from eventstore.paging import history
from eventstore.records import FoldSave, Projection, StoredEntry
from eventstore.roles import Folds, Log
from rules.codec import JSON
from rules.fold import Battle, Seeds, decode_battle, encode_battle
from rules.history import battle_seeds, fold_history
from rules.registry import refusal
from rules.undo import Rewinder, from_snapshots
from workers.measure import FoldTally

BATCH = 500  # entries folded between two atomic writes of state + outcomes
WRITE_EVERY_S = 0.2  # ... or fewer, when folding them takes longer: a fold renews its lock at every write
SNAPSHOT_EVERY = 256  # versions between snapshots: bounds the fold behind `GET state?at=v`
SEED_CACHE = 4096  # battles whose seeds one worker process remembers (they never change)
STATE_CACHE = 1024  # battles whose decoded state one worker process keeps between folds

T = TypeVar("T")
_seeds: dict[str, Seeds] = {}
_states: dict[str, tuple[str, Battle[Any]]] = {}  # battle -> (the stored state JSON, that state decoded)


class UnsupportedRules(RuntimeError):
    """The battle's `battle_created` pins rules this release does not fold."""

    def __init__(
        self, battle_id: str, ruleset: str, rules_version: object, supported: tuple[str, ...]
    ) -> None:
        folds = ", ".join(supported) or "no version of it"
        super().__init__(
            f"battle {battle_id} needs rules version {rules_version} of {ruleset}; this release folds {folds}"
        )
        self.battle_id, self.ruleset, self.rules_version, self.supported = (
            battle_id, ruleset, rules_version, supported,
        )  # fmt: skip


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
    entries = history(store, battle_id, after=saved.version if saved else 0)
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
    the last write: that one is the caller's (`Unsaved.write`, then `settle`)."""
    write_by = time.monotonic() + WRITE_EVERY_S
    start = written = saved.version if saved else 0
    last: Battle[Any] | None = None
    outcomes: list[tuple[int, str]] = []
    snapshots: list[Projection] = []
    tally = FoldTally()
    entries = tally.watch(new_entries)
    rewind = store_rewinder(store, folds, battle_id)
    for battle, outcome in fold_history(saved, entries, lambda: seeds_of(store, battle_id), rewind):
        last = battle
        tally.folded(battle.ruleset, outcome)
        outcomes.append((battle.version, canonical_json(outcome)))
        if battle.version % snapshot_every == 0:
            snapshots.append(Projection(version=battle.version, state=canonical_json(encode_battle(battle))))
        if len(outcomes) >= BATCH or time.monotonic() >= write_by:
            if not _save(folds, battle_id, battle, outcomes, snapshots):
                # another folder got there first: its writes stand, ours would repeat them
                return Unsaved(
                    battle_id=battle_id,
                    from_version=start,
                    written=written,
                    last=last,
                    write=None,
                    tally=tally,
                )
            tally.written()
            written, outcomes, snapshots = battle.version, [], []
            write_by = time.monotonic() + WRITE_EVERY_S
            if keep_alive is not None:
                keep_alive()
    write = None
    if last is not None and outcomes:
        write = FoldSave(state=_state(last), outcomes=outcomes, snapshots=snapshots)
    return Unsaved(
        battle_id=battle_id, from_version=start, written=written, last=last, write=write, tally=tally
    )


def replay_states(
    store: Log, folds: Folds, battle_id: str, *, upto: int | None = None
) -> Iterator[tuple[Battle[Any], dict[str, JSON]]]:
    """Fold the whole log from version 1, streamed: what the replay verifier compares against."""
    return fold_log(store, folds, battle_id, None, upto=upto)


def fold_log(
    store: Log, folds: Folds, battle_id: str, battle: Battle[Any] | None, *, upto: int | None = None
) -> Iterator[tuple[Battle[Any], dict[str, JSON]]]:
    """Fold the stored entries after `battle` (None: from version 1), read in batches, never all at once."""
    entries = history(store, battle_id, after=battle.version if battle else 0, upto=upto)
    rewind = store_rewinder(store, folds, battle_id)
    return fold_history(battle, entries, lambda: seeds_of(store, battle_id), rewind)


def store_rewinder(store: Log, folds: Folds, battle_id: str) -> Rewinder:
    """What an `undo` folds its earlier state with: the nearest snapshot, then the log."""

    def snapshot(version: int) -> str | None:
        stored = folds.snapshot_at_or_before(battle_id, version)
        return stored.state if stored is not None else None

    def entries(after: int, upto: int) -> Iterator[StoredEntry]:
        return history(store, battle_id, after=after, upto=upto)

    return from_snapshots(entries, lambda: seeds_of(store, battle_id), snapshot)


def seeds_of(store: Log, battle_id: str) -> Seeds:
    """The battle's dice seeds, remembered: neither the secret nor version 1's client seed ever change.
    Every fold asks for them before its first outcome: a battle of other rules is refused here."""
    known = _seeds.get(battle_id)
    if known is None:
        created = store.entry(battle_id, 1)
        if created is None:
            raise UnknownBattle(battle_id)
        require_folded(battle_id, created.data)
        known = battle_seeds(store.secret(battle_id), created.data)
        _remember(_seeds, battle_id, known, SEED_CACHE)
    return known


def require_folded(battle_id: str, created: Mapping[str, Any]) -> None:
    """UnsupportedRules unless this release folds the rules version `created` (version 1's data) pins."""
    refused = refusal(created)
    if refused is not None:
        raise UnsupportedRules(battle_id, refused.ruleset, refused.rules_version, refused.supported)


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


def _save(
    store: Folds,
    battle_id: str,
    battle: Battle[Any],
    outcomes: list[tuple[int, str]],
    snapshots: list[Projection],
) -> bool:
    state = _state(battle)
    saved = store.save_projection(battle_id, state=state, outcomes=outcomes, snapshots=snapshots)
    if saved:
        _remember(_states, battle_id, (state.state, battle), STATE_CACHE)
    return saved


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
