"""One projection job drains every pending battle; locks, the scheduled flag and hand-off (DESIGN §6)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from eventstore import keys, paging
from eventstore.redis_store import RedisEventStore
from replay.folds import fold_entries
from tests.workers.logs import fresh_state, new_battle, projected_version
from workers import drain, projection
from workers.drain import Drained, drain_pending
from workers.projection import BATCH, project_battle
from workers.queue import enqueue_projection, projection_queue


def run_drain(store: RedisEventStore, **options: Any) -> Drained:
    """`drain_pending` with the one backend as the log, its folds and the schedule."""
    return drain_pending(store, store, store, **options)


def never_requeue() -> None:
    raise AssertionError("a drain that empties the pending set needs no successor job")


def test_one_job_folds_every_pending_battle(redis_store: RedisEventStore) -> None:
    battles = [new_battle(redis_store, commands=20) for _ in range(5)]
    for battle_id in battles:
        redis_store.mark_pending(battle_id)

    drained = run_drain(redis_store, requeue=never_requeue)

    assert (drained.rounds, drained.battles, drained.entries) == (1, 5, 5 * 21)
    assert [projected_version(redis_store, b) for b in battles] == [21] * 5


def test_a_battle_locked_by_another_folder_goes_back_and_is_folded_once_free(
    redis_store: RedisEventStore,
) -> None:
    locked, free = new_battle(redis_store, commands=4), new_battle(redis_store, commands=4)
    assert redis_store.try_lock(locked, "another-worker", 300)  # that worker dies; its lock lapses
    redis_store.mark_pending(locked)
    redis_store.mark_pending(free)

    drained = run_drain(redis_store, requeue=never_requeue)

    assert drained.busy >= 1
    assert drained.battles == 2
    assert projected_version(redis_store, locked) == projected_version(redis_store, free) == 5


def test_a_battle_that_cannot_be_folded_does_not_hold_back_the_others(redis_store: RedisEventStore) -> None:
    broken = new_battle(redis_store, commands=2, ruleset="chess")  # a ruleset no worker knows
    sound = new_battle(redis_store, commands=2)
    for battle_id in (broken, sound):
        redis_store.mark_pending(battle_id)

    drained = run_drain(redis_store, requeue=never_requeue)

    # rules no worker of this release has: refused as such (workers/projection.py), not a failed fold
    assert (drained.battles, drained.failed, drained.unsupported) == (1, 0, 1)
    assert projected_version(redis_store, sound) == 3
    assert projected_version(redis_store, broken) == 0


def test_the_job_clears_the_scheduled_flag_so_the_next_append_asks_for_a_job(
    redis_store: RedisEventStore,
) -> None:
    battle_id = new_battle(redis_store, commands=1)
    assert redis_store.mark_pending(battle_id) is True
    assert redis_store.mark_pending(battle_id) is False  # coalesced: one job is already on its way

    run_drain(redis_store, requeue=never_requeue)

    assert redis_store.mark_pending(battle_id) is True


def test_a_second_job_for_a_folded_battle_changes_nothing(redis_store: RedisEventStore) -> None:
    battle_id = new_battle(redis_store, commands=3)
    redis_store.mark_pending(battle_id)
    run_drain(redis_store, requeue=never_requeue)
    before = redis_store.projection(battle_id)

    redis_store.mark_pending(battle_id)
    again = run_drain(redis_store, requeue=never_requeue)

    assert again.entries == 0
    assert redis_store.projection(battle_id) == before


def test_a_drain_past_its_budget_hands_the_rest_to_a_new_job(redis_store: RedisEventStore) -> None:
    for _ in range(2):
        redis_store.mark_pending(new_battle(redis_store, commands=1))
    requeued: list[bool] = []

    drained = run_drain(redis_store, requeue=lambda: requeued.append(True), take=1, budget_s=0)

    assert drained.handed_off and drained.rounds == 1
    assert requeued == [True]
    assert len(redis_store.take_pending(10)) == 1  # the battle it did not reach waits for that job


def test_an_idle_drain_folds_a_battle_marked_while_it_lingers(redis_store: RedisEventStore) -> None:
    battle_id = new_battle(redis_store, commands=2)
    drained: list[Drained] = []
    job = threading.Thread(target=lambda: drained.append(run_drain(redis_store, requeue=never_requeue)))
    job.start()
    time.sleep(0.1)
    redis_store.mark_pending(battle_id)  # arrives while the job has nothing to do yet
    job.join(timeout=30)

    assert drained and drained[0].battles == 1
    assert projected_version(redis_store, battle_id) == 3


@pytest.mark.usefixtures("job_env")
def test_the_job_enqueued_by_dotted_path_runs_in_an_rq_worker(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battles = [new_battle(redis_store, commands=2) for _ in range(3)]
    for battle_id in battles:
        redis_store.mark_pending(battle_id)
    queue = projection_queue(redis_client)
    enqueue_projection(queue)

    SimpleWorker([queue], connection=redis_client, serializer=JSONSerializer).work(burst=True)

    job = queue.finished_job_registry.get_job_ids()
    assert len(job) == 1
    result = queue.fetch_job(job[0])
    assert result is not None and result.return_value() == {
        "rounds": 1,
        "battles": 3,
        "entries": 9,
        "busy": 0,
        "failed": 0,
        "unsupported": 0,
        "handed_off": False,
    }
    assert [projected_version(redis_store, b) for b in battles] == [3, 3, 3]


def test_a_long_fold_renews_its_lock_after_every_batch_it_writes(redis_store: RedisEventStore) -> None:
    # (and more often when a batch takes longer than WRITE_EVERY_S to fold: at least two renewals here)
    battle_id = new_battle(redis_store, commands=2 * BATCH + 10)
    renewals: list[int] = []

    folded = project_battle(redis_store, redis_store, battle_id, keep_alive=lambda: renewals.append(1))

    assert folded.to_version == 2 * BATCH + 11
    assert len(renewals) >= 2  # after each full batch; the last, partial one ends the fold


def test_a_round_folds_a_battle_with_more_new_entries_than_one_read_brings(
    redis_store: RedisEventStore,
) -> None:
    long, short = new_battle(redis_store, commands=paging.BATCH + 30), new_battle(redis_store, commands=3)
    for battle_id in (long, short):
        redis_store.mark_pending(battle_id)

    drained = run_drain(redis_store, requeue=never_requeue)

    assert (drained.battles, drained.entries) == (2, paging.BATCH + 31 + 4)
    assert projected_version(redis_store, long) == paging.BATCH + 31
    assert len(redis_store.outcomes(long, limit=1000)) == paging.BATCH + 31
    assert redis_store.projection(long).state == fresh_state(redis_store, long)  # type: ignore[union-attr]


def test_a_pending_battle_that_does_not_exist_fails_alone(redis_store: RedisEventStore) -> None:
    sound = new_battle(redis_store, commands=2)
    redis_store.mark_pending("no-such-battle")
    redis_store.mark_pending(sound)

    drained = run_drain(redis_store, requeue=never_requeue)

    assert (drained.battles, drained.failed, drained.unsupported) == (1, 1, 0)
    assert projected_version(redis_store, sound) == 3
    assert redis_store.try_lock("no-such-battle", "another-worker", 1000)  # released like the rest


def test_a_round_keeps_every_lock_while_one_of_its_folds_outlasts_their_time_to_live(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def slowly(*args: Any) -> Iterator[Any]:  # the rules at a millisecond an entry: a long fold for sure
        for folded in fold_entries(*args):
            time.sleep(0.001)
            yield folded

    project_battle(
        redis_store, redis_store, new_battle(redis_store, commands=1)
    )  # the rules imported: no cold start
    monkeypatch.setattr(projection, "fold_entries", slowly)
    monkeypatch.setattr(drain, "LOCK_TTL_MS", 100)  # a third of what folding the long battle takes
    monkeypatch.setattr(drain, "WRITE_EVERY_S", 0.01)
    monkeypatch.setattr(projection, "WRITE_EVERY_S", 0.01)
    long, short = new_battle(redis_store, commands=300), new_battle(redis_store, commands=2)
    for battle_id in (long, short):
        redis_store.mark_pending(battle_id)
    job = threading.Thread(target=lambda: run_drain(redis_store, requeue=never_requeue, owner="round"))
    stolen: list[int] = []

    job.start()
    while job.is_alive() and redis_client.get(keys.lock(short)) != b"round":
        time.sleep(0.001)
    while job.is_alive():  # another folder trying its luck with the short battle all the while
        if redis_store.try_lock(short, "rival", 1000):
            stolen.append(projected_version(redis_store, short))  # legitimate only once it was saved
            redis_store.unlock(short, "rival")
        time.sleep(0.002)
    job.join()

    assert all(version == 3 for version in stolen)
    assert projected_version(redis_store, long) == 301
    assert projected_version(redis_store, short) == 3
