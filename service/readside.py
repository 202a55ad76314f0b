"""Reading a battle's state at any version: the stored projection, or a fold from the nearest snapshot."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from eventstore.canonical import canonical_json
from eventstore.paging import history
from eventstore.records import Projection, StoredEntry
from eventstore.roles import Folds, Log
from rules.fold import Battle, Seeds, decode_battle, encode_battle
from rules.history import battle_seeds, state_after
from rules.registry import refusal
from rules.undo import Rewinder, from_snapshots
from service.http.problems import Problem


def state_at(
    store: Log, folds: Folds, created: StoredEntry, battle_id: str, version: int | None
) -> Projection:
    """The battle at `version` as canonical JSON (None: the current projection, which may lag the log)."""
    projection = folds.projection(battle_id)
    if version is None and projection is not None:
        return projection
    head = store.head(battle_id).version
    target = head if version is None else version
    if target > head:
        raise Problem(404, "version-not-found", "No such version", f"The battle's head is version {head}.")
    if projection is not None and projection.version == target:
        return projection
    judged(created)
    battle = _folded(store, folds, created, battle_id, target, projection)
    return Projection(version=target, state=canonical_json(encode_battle(battle)))


def battle_at(store: Log, folds: Folds, created: StoredEntry, battle_id: str, version: int) -> Battle[Any]:
    """The battle at `version` (at most the head), decoded: what the API judges a side's command on."""
    judged(created)
    projection = folds.projection(battle_id)
    if projection is not None and projection.version == version:
        return decode_battle(json.loads(projection.state))
    return _folded(store, folds, created, battle_id, version, projection)


def judged(created: StoredEntry) -> None:
    """UnfoldableRules (a 409) for a battle pinned to rules this release does not fold: its states, stored
    by another release, are neither decoded nor folded again with these rules."""
    refused = refusal(created.data)
    if refused is not None:
        raise refused


def _folded(
    store: Log,
    folds: Folds,
    created: StoredEntry,
    battle_id: str,
    target: int,
    projection: Projection | None,
) -> Battle[Any]:
    start = _nearest_start(folds, battle_id, target, projection)
    battle = decode_battle(json.loads(start.state)) if start else None
    return _fold(store, folds, created, battle_id, battle, target)


def _nearest_start(
    store: Folds, battle_id: str, target: int, projection: Projection | None
) -> Projection | None:
    snapshot = store.snapshot_at_or_before(battle_id, target)
    candidates = [p for p in (snapshot, projection) if p is not None and p.version <= target]
    return max(candidates, key=lambda p: p.version, default=None)


def _fold(
    store: Log,
    folds: Folds,
    created: StoredEntry,
    battle_id: str,
    battle: Battle[Any] | None,
    target: int,
) -> Battle[Any]:
    entries = history(store, battle_id, after=battle.version if battle else 0, upto=target)
    folded = state_after(
        battle, entries, _seeds(store, created, battle_id), rewinder(store, folds, created, battle_id)
    )
    assert folded is not None, "a battle always has version 1"
    return folded


def rewinder(store: Log, folds: Folds, created: StoredEntry, battle_id: str) -> Rewinder:
    """What an `undo` folds its earlier state with here: the nearest snapshot, then the log."""
    return from_snapshots(
        lambda a, b: history(store, battle_id, after=a, upto=b),
        _seeds(store, created, battle_id),
        lambda v: _state_text(folds.snapshot_at_or_before(battle_id, v)),
    )


def _seeds(store: Log, created: StoredEntry, battle_id: str) -> Callable[[], Seeds]:
    return lambda: battle_seeds(store.secret(battle_id), created.data)


def _state_text(stored: Projection | None) -> str | None:
    return stored.state if stored is not None else None
