"""The folds' contract, on every backend: a projection saved with its outcomes and snapshots (never twice,
never backwards, never with a gap), the fold lock, and a drain round's batched calls, each battle's part as
`try_lock`, `read`, `save_projection` and `unlock` would do it."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from eventstore.errors import UnknownBattle
from eventstore.records import FoldSave
from eventstore.redis_store import RedisEventStore
from tests.eventstore.contract.builders import outcomes, state, versions
from tests.eventstore.helpers import SEED, battle, eventually
from tests.fixtures.redis_server import Backend


def test_a_projection_lands_with_its_outcomes_and_snapshots(store: Backend) -> None:
    battle(store, commands=4)
    assert store.projection("b1") is None
    saved = store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3), snapshots=[state(2)])
    assert saved
    assert store.projection("b1") == state(3)
    assert store.outcomes("b1") == outcomes(1, 3)
    assert store.outcome("b1", 2) == '{"version":2}' and store.outcome("b1", 4) is None
    assert store.snapshot_at_or_before("b1", 3) == state(2)


def test_a_projection_sent_ahead_lands_as_one_saved_at_once(store: Backend) -> None:
    battle(store, commands=8)
    sent = store.send_projection("b1", state=state(3), outcomes=outcomes(1, 3), snapshots=[state(2)])
    assert sent.answer()
    assert store.projection("b1") == state(3) and store.outcomes("b1") == outcomes(1, 3)
    assert store.snapshot_at_or_before("b1", 3) == state(2)
    assert store.send_projection("b1", state=state(6), outcomes=outcomes(4, 6)).answer()
    assert not store.send_projection("b1", state=state(6), outcomes=outcomes(4, 6)).answer()  # never twice
    assert store.projection("b1") == state(6) and store.outcomes("b1") == outcomes(1, 6)
    with pytest.raises(UnknownBattle):
        store.send_projection("nope", state=state(1), outcomes=outcomes(1, 1)).answer()


def test_a_projection_sent_and_dropped_leaves_the_store_answering(store: Backend) -> None:
    battle(store, commands=8)
    store.send_projection("b1", state=state(3), outcomes=outcomes(1, 3)).drop()
    # whether the dropped write landed is not known to the dropper; the store holds it whole or not at all
    assert store.projection("b1") in (None, state(3))
    assert store.outcomes("b1") == ([] if store.projection("b1") is None else outcomes(1, 3))
    after = len(store.outcomes("b1"))
    assert store.save_projection("b1", state=state(5), outcomes=outcomes(after + 1, 5))
    assert store.projection("b1") == state(5) and store.outcomes("b1") == outcomes(1, 5)


def test_an_unknown_battle_has_no_projection_and_takes_none(store: Backend) -> None:
    with pytest.raises(UnknownBattle):
        store.save_projection("nope", state=state(1), outcomes=outcomes(1, 1))
    assert store.projection("nope") is None


def test_a_projection_is_never_applied_twice(store: Backend) -> None:
    battle(store, commands=4)
    assert store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    assert not store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    assert store.outcomes("b1") == outcomes(1, 3)


def test_a_projection_never_goes_backwards(store: Backend) -> None:
    battle(store, commands=4)
    store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    assert not store.save_projection("b1", state=state(2), outcomes=outcomes(1, 2))
    assert store.projection("b1") == state(3)


def test_a_projection_that_skips_versions_writes_nothing(store: Backend) -> None:
    battle(store, commands=9)
    store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    skipped = store.save_projection("b1", state=state(6), outcomes=outcomes(5, 6), snapshots=[state(6)])
    assert not skipped
    assert store.projection("b1") == state(3)
    assert store.outcomes("b1") == outcomes(1, 3)
    assert store.snapshot_at_or_before("b1", 6) is None


def test_projections_continue_where_the_last_one_ended(store: Backend) -> None:
    battle(store, commands=9)
    store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    assert store.save_projection("b1", state=state(7), outcomes=outcomes(4, 7))
    assert store.outcomes("b1", after=2, limit=3) == outcomes(3, 5)
    assert store.outcomes("b1", after=7) == []


def test_outcomes_out_of_sequence_are_a_caller_error(store: Backend) -> None:
    battle(store, commands=4)
    with pytest.raises(ValueError):
        store.save_projection("b1", state=state(3), outcomes=[(1, "{}"), (3, "{}")])
    assert store.projection("b1") is None


def test_the_snapshot_at_or_before_a_version_is_the_latest_one_not_after_it(store: Backend) -> None:
    battle(store, commands=9)
    store.save_projection("b1", state=state(4), outcomes=outcomes(1, 4), snapshots=[state(2), state(4)])
    store.save_projection("b1", state=state(8), outcomes=outcomes(5, 8), snapshots=[state(6), state(8)])
    assert store.snapshot_at_or_before("b1", 1) is None
    assert store.snapshot_at_or_before("b1", 4) == state(4)
    assert store.snapshot_at_or_before("b1", 5) == state(4)
    assert store.snapshot_at_or_before("b1", 100) == state(8)


def test_deleting_derived_keys_keeps_the_log_and_allows_a_rebuild(store: Backend) -> None:
    battle(store, commands=4)
    head = store.head("b1")
    store.save_projection("b1", state=state(5), outcomes=outcomes(1, 5), snapshots=[state(4)])
    store.delete_derived("b1")
    assert store.projection("b1") is None and store.outcomes("b1") == []
    assert store.snapshot_at_or_before("b1", 5) is None
    assert store.head("b1") == head and versions(store, "b1") == [1, 2, 3, 4, 5]
    assert store.secret("b1") == SEED
    assert store.save_projection("b1", state=state(5), outcomes=outcomes(1, 5))


def test_a_lock_has_one_owner_at_a_time(store: Backend) -> None:
    assert store.try_lock("b1", "worker-a", ttl_ms=30_000)
    assert not store.try_lock("b1", "worker-b", ttl_ms=30_000)
    assert store.try_lock("b2", "worker-b", ttl_ms=30_000)


def test_only_the_owner_releases_a_lock(store: Backend) -> None:
    store.try_lock("b1", "worker-a", ttl_ms=30_000)
    store.unlock("b1", "worker-b")
    assert not store.try_lock("b1", "worker-b", ttl_ms=30_000)
    store.unlock("b1", "worker-a")
    assert store.try_lock("b1", "worker-b", ttl_ms=30_000)


def test_a_crashed_owners_lock_expires(store: Backend) -> None:
    store.try_lock("b1", "worker-a", ttl_ms=50)
    assert eventually(lambda: store.try_lock("b1", "worker-b", ttl_ms=30_000))
    store.unlock("b1", "worker-a")  # the old owner waking up late must not free the new owner's lock
    assert not store.try_lock("b1", "worker-c", ttl_ms=30_000)


TTL_MS = 2_000


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


def test_the_lagging_battles_are_those_projected_behind_their_head(store: Backend) -> None:
    behind, current, fresh = (battle(store, battle_id, commands=3) for battle_id in ("b1", "b2", "b3"))
    store.save_projection(behind, state=state(2), outcomes=save(1, 2).outcomes)
    store.save_projection(current, state=state(4), outcomes=save(1, 4).outcomes)

    assert store.lagging([behind, "nope", current, fresh]) == [behind, fresh]
    assert store.lagging([]) == []
