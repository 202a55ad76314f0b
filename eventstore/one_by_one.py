"""A drain round's batched calls made one battle at a time: how the in-process store honours them."""

from __future__ import annotations

from collections.abc import Sequence

from eventstore.errors import UnknownBattle
from eventstore.protocol import EventStore
from eventstore.records import FoldSave, FoldStart


def begin_folds(
    store: EventStore, battle_ids: Sequence[str], owner: str, ttl_ms: int, *, limit: int
) -> list[FoldStart | None]:
    return [_begin(store, battle_id, owner, ttl_ms, limit) for battle_id in battle_ids]


def _begin(store: EventStore, battle_id: str, owner: str, ttl_ms: int, limit: int) -> FoldStart | None:
    if not store.try_lock(battle_id, owner, ttl_ms):
        return None
    saved = store.projection(battle_id)
    try:
        entries = store.read(battle_id, after=saved.version if saved else 0, limit=limit)
    except UnknownBattle:
        entries = []
    return FoldStart(projection=saved, entries=entries)


def finish_folds(store: EventStore, owner: str, folds: Sequence[tuple[str, FoldSave | None]]) -> list[bool]:
    return [_finish(store, owner, battle_id, save) for battle_id, save in folds]


def _finish(store: EventStore, owner: str, battle_id: str, save: FoldSave | None) -> bool:
    try:
        if save is None:
            return False
        return store.save_projection(
            battle_id, state=save.state, outcomes=save.outcomes, snapshots=save.snapshots
        )
    except UnknownBattle:
        return False
    finally:
        store.unlock(battle_id, owner)


def mark_pending_again(store: EventStore, battle_ids: Sequence[str]) -> bool:
    return any([store.mark_pending(battle_id) for battle_id in battle_ids])


def lagging(store: EventStore, battle_ids: Sequence[str]) -> list[str]:
    return [
        battle_id for battle_id in battle_ids if store.projected_version(battle_id) < _head(store, battle_id)
    ]


def _head(store: EventStore, battle_id: str) -> int:
    try:
        return store.head(battle_id).version
    except UnknownBattle:  # listed in the index but its log is gone: nothing to fold
        return 0
