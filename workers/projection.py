"""Fold a battle's unprojected log entries into its state, outcomes and snapshots (DESIGN §6)."""

from __future__ import annotations

import json
import os
import socket
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace

from eventstore.protocol import EventStore, Projection, StoredEntry
from rules.codec import canonical_json
from rules.fold import Battle, Entry, Seeds, decode_battle, encode_battle, project

BATCH = 500  # entries folded between two atomic writes of state + outcomes
SNAPSHOT_EVERY = 256  # versions between snapshots: bounds the fold behind `GET state?at=v`
TAKE = 64  # battles popped from the pending set per round
LOCK_TTL_MS = 10_000  # a SIGKILLed folder blocks its battle at most this long
BUDGET_S = 60.0  # a drain that never sees an empty set hands off to a fresh job before RQ's timeout
BUSY_PAUSE_S = 0.02  # a round in which every battle was locked by another folder waits this long


@dataclass(frozen=True, slots=True, kw_only=True)
class Folded:
    battle_id: str
    from_version: int
    to_version: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Drained:
    rounds: int = 0
    battles: int = 0
    entries: int = 0
    busy: int = 0
    handed_off: bool = False


def project_pending() -> dict[str, object]:
    """The RQ job: drain every pending battle (one job folds many battles, never one per command)."""
    from workers import deps  # the job builds its own dependencies; tests call drain_pending

    return asdict(drain_pending(deps.store(), requeue=deps.requeue_projection))


def drain_pending(
    store: EventStore,
    *,
    requeue: Callable[[], None],
    owner: str = "",
    take: int = TAKE,
    budget_s: float = BUDGET_S,
) -> Drained:
    """Fold pending battles in rounds until none is left; a battle locked by another folder goes back."""
    owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
    deadline = time.monotonic() + budget_s
    done = Drained()
    while True:
        store.clear_scheduled()  # before every take: a mark landing after it schedules a new job
        taken = store.take_pending(take)
        if not taken:
            return done
        folded = {b: _fold_if_free(store, b, owner) for b in taken}
        busy = [b for b, f in folded.items() if f is None]
        for battle_id in busy:
            store.mark_pending(battle_id)
        entries = sum(f.to_version - f.from_version for f in folded.values() if f is not None)
        done = Drained(
            rounds=done.rounds + 1,
            battles=done.battles + len(taken) - len(busy),
            entries=done.entries + entries,
            busy=done.busy + len(busy),
        )
        if time.monotonic() > deadline:
            requeue()  # the set may never empty under load: a fresh job carries on
            return replace(done, handed_off=True)
        if len(busy) == len(taken):
            time.sleep(BUSY_PAUSE_S)  # everyone else's: give their folders a moment instead of spinning


def _fold_if_free(store: EventStore, battle_id: str, owner: str) -> Folded | None:
    if not store.try_lock(battle_id, owner, LOCK_TTL_MS):
        return None
    try:
        return project_battle(store, battle_id)
    finally:
        store.unlock(battle_id, owner)


def seeds_of(store: EventStore, battle_id: str, client_seed: str) -> Seeds:
    return Seeds(server_seed=bytes.fromhex(store.secret(battle_id)), client_seed=client_seed)


def to_fold_entry(stored: StoredEntry) -> Entry:
    return Entry(
        version=stored.version, type=stored.type, data=stored.data, dice=stored.dice, hash=stored.hash
    )


def load_projection(store: EventStore, battle_id: str) -> Battle | None:
    saved = store.projection(battle_id)
    return decode_battle(json.loads(saved.state)) if saved else None


def project_battle(store: EventStore, battle_id: str, *, snapshot_every: int = SNAPSHOT_EVERY) -> Folded:
    """Bring one battle's projection up to its log head; safe to run twice (the store guards versions)."""
    battle = load_projection(store, battle_id)
    start = battle.version if battle else 0
    seeds: Seeds | None = None
    outcomes: list[tuple[int, str]] = []
    snapshots: list[Projection] = []
    for stored in store.iter_entries(battle_id, after=start, batch=BATCH):
        if seeds is None:
            seeds = seeds_of(store, battle_id, _client_seed(store, battle_id, battle, stored))
        battle, outcome = next(project(battle, [to_fold_entry(stored)], seeds))
        outcomes.append((battle.version, canonical_json(outcome)))
        if battle.version % snapshot_every == 0:
            snapshots.append(Projection(version=battle.version, state=canonical_json(encode_battle(battle))))
        if len(outcomes) >= BATCH:
            if not _save(store, battle_id, battle, outcomes, snapshots):
                return Folded(battle_id=battle_id, from_version=start, to_version=battle.version)
            outcomes, snapshots = [], []
    if battle is not None and outcomes:
        _save(store, battle_id, battle, outcomes, snapshots)
    end = battle.version if battle else 0
    return Folded(battle_id=battle_id, from_version=start, to_version=end)


def replay_states(
    store: EventStore, battle_id: str, *, upto: int | None = None
) -> Iterator[tuple[Battle, dict[str, object]]]:
    """Fold the whole log from version 1, streamed: what replay and audit compare against."""
    entries = store.iter_entries(battle_id, after=0, upto=upto, batch=BATCH)
    first = next(entries, None)
    if first is None:
        return
    seeds = seeds_of(store, battle_id, str(first.data.get("client_seed") or ""))
    yield from project(None, (to_fold_entry(e) for e in _chain(first, entries)), seeds)


def _save(
    store: EventStore,
    battle_id: str,
    battle: Battle,
    outcomes: list[tuple[int, str]],
    snapshots: list[Projection],
) -> bool:
    state = Projection(version=battle.version, state=canonical_json(encode_battle(battle)))
    return store.save_projection(battle_id, state=state, outcomes=outcomes, snapshots=snapshots)


def _client_seed(store: EventStore, battle_id: str, battle: Battle | None, first: StoredEntry) -> str:
    if first.version == 1:
        return str(first.data.get("client_seed") or "")
    created = store.entry(battle_id, 1)
    return str(created.data.get("client_seed") or "") if created else ""


def _chain(first: StoredEntry, rest: Iterator[StoredEntry]) -> Iterator[StoredEntry]:
    yield first
    yield from rest
