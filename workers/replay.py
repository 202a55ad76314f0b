"""Replays: rebuild a battle's derived keys from its log, or verify them against a fresh replay."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from eventstore.canonical import canonical_json
from eventstore.records import Projection
from eventstore.roles import Folds, Log
from replay.drift import compare_outcomes
from replay.folds import replay_states, seeds_of
from rules.fold import encode_battle
from workers.drain import LOCK_TTL_MS, folder_name, renew_lock
from workers.projection import SNAPSHOT_EVERY, Folded, project_battle

LOCK_WAIT_S = 30.0  # how long a rebuild waits for a folder that holds the battle
Mode = Literal["rebuild", "verify"]


class BattleBusy(RuntimeError):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """`first_difference` is the first version whose stored outcome, snapshot or state differs."""

    battle_id: str
    ok: bool
    projected_version: int
    first_difference: int | None = None
    what: Literal["outcome", "snapshot", "state"] | None = None


def rebuild(store: Log, folds: Folds, battle_id: str, *, wait_s: float = LOCK_WAIT_S) -> Folded:
    """Drop outcomes, state and snapshots and fold the log again from version 1, holding the battle's lock."""
    store.head(battle_id)  # UnknownBattle before anything is deleted
    seeds_of(store, battle_id)  # UnsupportedRules too: outcomes of other rules are kept, never refolded
    owner = folder_name("replay")
    deadline = time.monotonic() + wait_s
    while not folds.try_lock(battle_id, owner, LOCK_TTL_MS):
        if time.monotonic() > deadline:
            raise BattleBusy(f"battle {battle_id} stayed locked for {wait_s}s")
        time.sleep(0.05)
    try:
        folds.delete_derived(battle_id)
        return project_battle(store, folds, battle_id, keep_alive=lambda: renew_lock(folds, battle_id, owner))
    finally:
        folds.unlock(battle_id, owner)


def verify(store: Log, folds: Folds, battle_id: str) -> Verdict:
    """Compare a fresh replay with the stored projection, byte for byte, up to the projected version;
    UnsupportedRules (the job fails saying so) for a battle of rules this release does not fold."""
    seeds_of(store, battle_id)  # refused first: a battle never projected would otherwise compare nothing
    saved = folds.projection(battle_id)
    upto = saved.version if saved else 0
    for version, what in _differences(store, folds, battle_id, saved):
        return Verdict(
            battle_id=battle_id, ok=False, projected_version=upto, first_difference=version, what=what
        )
    return Verdict(battle_id=battle_id, ok=True, projected_version=upto)


Difference = tuple[int, Literal["outcome", "snapshot", "state"]]


def _differences(store: Log, folds: Folds, battle_id: str, saved: Projection | None) -> Iterator[Difference]:
    upto = saved.version if saved else 0
    for battle, _outcome, match in compare_outcomes(
        store, battle_id, upto, replay_states(store, folds, battle_id, upto=upto)
    ):
        version = battle.version
        if match != "same":  # within the projected version, an outcome not yet written is one lost
            yield version, "outcome"
        if version % SNAPSHOT_EVERY == 0 and not _snapshot_matches(
            folds, battle_id, version, encode_battle(battle)
        ):
            yield version, "snapshot"
        if saved is not None and version == upto and saved.state != canonical_json(encode_battle(battle)):
            yield version, "state"


def _snapshot_matches(store: Folds, battle_id: str, version: int, encoded: object) -> bool:
    snapshot = store.snapshot_at_or_before(battle_id, version)
    return snapshot is None or snapshot.version != version or snapshot.state == canonical_json(encoded)
