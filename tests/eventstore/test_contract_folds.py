"""A drain round's batched calls on every backend: locks and reads for many battles at once, then saves and
unlocks, each battle's part as `try_lock`, `read`, `save_projection` and `unlock` would do it (DESIGN §6)."""

from __future__ import annotations

from typing import Any

import redis

from eventstore.records import FoldSave, Projection
from eventstore.redis_store import RedisEventStore
from tests.eventstore.helpers import battle
from tests.fixtures.redis_server import Backend

TTL_MS = 2_000


def state(version: int) -> Projection:
    return Projection(version=version, state=f'{{"version":{version}}}')


def save(first: int, last: int, **more: Any) -> FoldSave:
    outcomes = [(v, f'{{"version":{v}}}') for v in range(first, last + 1)]
    return FoldSave(state=state(last), outcomes=outcomes, **more)


def test_begin_locks_each_free_battle_and_reads_the_entries_after_its_projection(store: Backend) -> None:
    fresh, folded, taken = battle(store, "b1", commands=2), battle(store, "b2", commands=4), "b3"
    store.save_projection(folded, state=state(3), outcomes=save(1, 3).outcomes)
    battle(store, taken)
    assert store.try_lock(taken, "worker-b", TTL_MS)

    starts = store.begin_folds([fresh, folded, taken], "worker-a", TTL_MS, limit=100)

    first, second, third = starts
    assert first is not None and first.projection is None
    assert [entry.version for entry in first.entries] == [1, 2, 3]
    assert first.entries == store.read(fresh)
    assert second is not None and second.projection == state(3)
    assert [entry.version for entry in second.entries] == [4, 5]
    assert third is None  # another folder's
    assert not store.try_lock(fresh, "worker-b", TTL_MS) and not store.try_lock(folded, "worker-b", TTL_MS)
    assert store.try_lock(fresh, "worker-a", TTL_MS)  # ours, renewed as try_lock renews


def test_begin_reads_at_most_the_limit(store: Backend) -> None:
    battle(store, "b1", commands=9)

    [start] = store.begin_folds(["b1"], "worker-a", TTL_MS, limit=4)

    assert start is not None and [entry.version for entry in start.entries] == [1, 2, 3, 4]


def test_begin_on_a_battle_that_does_not_exist_reads_nothing(store: Backend) -> None:
    [start] = store.begin_folds(["nope"], "worker-a", TTL_MS, limit=100)

    assert start is not None and start.projection is None and start.entries == []


def test_finish_saves_each_fold_and_releases_every_lock(store: Backend) -> None:
    for battle_id in ("b1", "b2", "b3"):
        battle(store, battle_id, commands=3)
    store.save_projection("b2", state=state(4), outcomes=save(1, 4).outcomes)
    store.begin_folds(["b1", "b2", "b3"], "worker-a", TTL_MS, limit=100)

    saved = store.finish_folds(
        "worker-a", [("b1", save(1, 4, snapshots=[state(2)])), ("b2", save(1, 4)), ("b3", None)]
    )

    assert saved == [True, False, False]  # b2 was guarded out: its projection is there already
    assert store.projection("b1") == state(4) and store.outcomes("b1") == save(1, 4).outcomes
    assert store.snapshot_at_or_before("b1", 3) == state(2)
    assert store.projection("b3") is None
    assert all(store.try_lock(battle_id, "worker-b", TTL_MS) for battle_id in ("b1", "b2", "b3"))


def test_finish_leaves_another_folders_lock_and_a_missing_battle_alone(store: Backend) -> None:
    battle(store, "b1", commands=1)
    assert store.try_lock("b1", "worker-b", TTL_MS)

    saved = store.finish_folds("worker-a", [("b1", None), ("nope", save(1, 1))])

    assert saved == [False, False]
    assert not store.try_lock("b1", "worker-c", TTL_MS)
    assert store.entry("nope", 1) is None and store.projection("nope") is None


def test_battles_marked_pending_again_are_all_taken_by_the_next_round(store: Backend) -> None:
    store.mark_pending_again(["b1", "b2", "b3"])
    store.mark_pending_again([])

    assert sorted(store.take_pending(10)) == ["b1", "b2", "b3"]


def test_batched_calls_load_their_scripts_again_after_the_server_forgot_them(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle(redis_store, "b1", commands=2)
    redis_client.script_flush()  # as after a restart without its AOF's scripts

    [start] = redis_store.begin_folds(["b1"], "worker-a", TTL_MS, limit=100)
    redis_client.script_flush()
    saved = redis_store.finish_folds("worker-a", [("b1", save(1, 3))])

    assert start is not None and len(start.entries) == 3
    assert saved == [True] and redis_store.projection("b1") == state(3)
    assert redis_store.try_lock("b1", "worker-b", TTL_MS)


def test_marking_pending_again_says_whether_a_job_is_wanted(store: Backend) -> None:
    assert store.mark_pending_again([]) is False
    assert store.mark_pending_again(["b1", "b2"]) is True
    assert store.mark_pending_again(["b3"]) is False  # coalesced: one job is already on its way


def test_the_lagging_battles_are_those_projected_behind_their_head(store: Backend) -> None:
    behind, current, fresh = (battle(store, battle_id, commands=3) for battle_id in ("b1", "b2", "b3"))
    store.save_projection(behind, state=state(2), outcomes=save(1, 2).outcomes)
    store.save_projection(current, state=state(4), outcomes=save(1, 4).outcomes)

    assert store.lagging([behind, "nope", current, fresh]) == [behind, fresh]
    assert store.lagging([]) == []
