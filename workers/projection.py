"""Fold a battle's unprojected log entries into its state, outcomes and snapshots (DESIGN §6)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass

from eventstore.protocol import EventStore, Projection, StoredEntry
from rules.codec import JSON, canonical_json
from rules.fold import Battle, Entry, Seeds, decode_battle, encode_battle, project
from workers import deps

BATCH = 500  # entries folded between two atomic writes of state + outcomes
SNAPSHOT_EVERY = 256  # versions between snapshots: bounds the fold behind `GET state?at=v`
SEED_CACHE = 4096  # battles whose seeds one worker process remembers (they never change)

_seeds: dict[str, Seeds] = {}


@dataclass(frozen=True, slots=True, kw_only=True)
class Folded:
    """What one call wrote: the projection moved from `from_version` to `to_version`."""

    battle_id: str
    from_version: int
    to_version: int


def project_pending() -> dict[str, object]:
    """The RQ job, enqueued by dotted path: drain every pending battle (see workers.drain)."""
    from workers import drain  # drain folds with project_battle: imported here, not at the top

    return asdict(drain.drain_pending(deps.store(), requeue=deps.requeue_projection))


def project_battle(store: EventStore, battle_id: str, *, snapshot_every: int = SNAPSHOT_EVERY) -> Folded:
    """Bring one battle's projection up to its log head; safe to run twice (the store guards versions)."""
    saved = load_projection(store, battle_id)
    start = written = saved.version if saved else 0
    last: Battle | None = None
    outcomes: list[tuple[int, str]] = []
    snapshots: list[Projection] = []
    for battle, outcome in fold_log(store, battle_id, saved):
        last = battle
        outcomes.append((battle.version, canonical_json(outcome)))
        if battle.version % snapshot_every == 0:
            snapshots.append(Projection(version=battle.version, state=canonical_json(encode_battle(battle))))
        if len(outcomes) >= BATCH:
            if not _save(store, battle_id, battle, outcomes, snapshots):
                break  # another folder got there first: its writes stand, ours would repeat them
            written, outcomes, snapshots = battle.version, [], []
    else:
        if last is not None and outcomes and _save(store, battle_id, last, outcomes, snapshots):
            written = last.version
    return Folded(battle_id=battle_id, from_version=start, to_version=written)


def replay_states(
    store: EventStore, battle_id: str, *, upto: int | None = None
) -> Iterator[tuple[Battle, dict[str, JSON]]]:
    """Fold the whole log from version 1, streamed: what replay and audit compare against."""
    return fold_log(store, battle_id, None, upto=upto)


def fold_log(
    store: EventStore, battle_id: str, battle: Battle | None, *, upto: int | None = None
) -> Iterator[tuple[Battle, dict[str, JSON]]]:
    """Fold the stored entries after `battle` (None: from version 1), read in batches, never all at once."""
    stored = store.iter_entries(battle_id, after=battle.version if battle else 0, upto=upto, batch=BATCH)
    first = next(stored, None)
    if first is None:
        return  # nothing to fold: not even the seeds are read
    entries = (to_fold_entry(e) for e in _chain(first, stored))
    yield from project(battle, entries, seeds_of(store, battle_id))


def seeds_of(store: EventStore, battle_id: str) -> Seeds:
    """The battle's dice seeds, remembered: neither the secret nor version 1's client seed ever change."""
    known = _seeds.get(battle_id)
    if known is None:
        created = store.entry(battle_id, 1)
        client_seed = str(created.data.get("client_seed") or "") if created else ""
        known = Seeds(server_seed=bytes.fromhex(store.secret(battle_id)), client_seed=client_seed)
        if len(_seeds) >= SEED_CACHE:
            del _seeds[next(iter(_seeds))]  # the oldest: dicts keep insertion order
        _seeds[battle_id] = known
    return known


def to_fold_entry(stored: StoredEntry) -> Entry:
    return Entry(
        version=stored.version, type=stored.type, data=stored.data, dice=stored.dice, hash=stored.hash
    )


def load_projection(store: EventStore, battle_id: str) -> Battle | None:
    saved = store.projection(battle_id)
    return decode_battle(json.loads(saved.state)) if saved else None


def _save(
    store: EventStore,
    battle_id: str,
    battle: Battle,
    outcomes: list[tuple[int, str]],
    snapshots: list[Projection],
) -> bool:
    state = Projection(version=battle.version, state=canonical_json(encode_battle(battle)))
    return store.save_projection(battle_id, state=state, outcomes=outcomes, snapshots=snapshots)


def _chain(first: StoredEntry, rest: Iterator[StoredEntry]) -> Iterator[StoredEntry]:
    yield first
    yield from rest
