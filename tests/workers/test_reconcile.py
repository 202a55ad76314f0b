"""The reconciler re-schedules battles whose projection lags their log, and never strands one (DESIGN §6)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import redis
from rq import Queue

from eventstore.redis_store import RedisEventStore
from tests.workers.logs import new_battle
from workers import reconcile as reconciling
from workers.projection import project_battle
from workers.queue import enqueue_projection, projection_queue
from workers.reconcile import Reconciled, reconcile


def reconciled(store: RedisEventStore, queue: Queue, *enqueue: Callable[[str, str], None]) -> Reconciled:
    """One pass, the one backend in each role the reconciler reads."""
    return reconcile(store, store, store, store, store, queue, *enqueue)


def test_a_lagging_battle_is_marked_pending_and_a_job_enqueued(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    queue = projection_queue(redis_client)
    lagging = new_battle(redis_store, commands=3)
    current = new_battle(redis_store, commands=2)
    project_battle(redis_store, redis_store, current)

    done = reconciled(redis_store, queue)

    assert (done.battles, done.lagging, done.enqueued) == (2, [lagging], True)
    assert queue.count == 1
    assert redis_store.take_pending(10) == [lagging]


def test_nothing_is_enqueued_when_every_projection_is_at_its_head(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    queue = projection_queue(redis_client)
    project_battle(redis_store, redis_store, new_battle(redis_store, commands=2))

    done = reconciled(redis_store, queue)

    assert (done.lagging, done.enqueued, queue.count) == ([], False, 0)


def test_a_scheduled_flag_with_no_job_behind_it_still_gets_a_job(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    queue = projection_queue(redis_client)
    battle_id = new_battle(redis_store, commands=1)
    assert redis_store.mark_pending(battle_id)  # the flag is set, but the job was lost before it ran

    done = reconciled(redis_store, queue)

    assert done.enqueued and queue.count == 1


def test_a_waiting_job_is_not_doubled(redis_store: RedisEventStore, redis_client: redis.Redis[Any]) -> None:
    queue = projection_queue(redis_client)
    battle_id = new_battle(redis_store, commands=1)
    assert redis_store.mark_pending(battle_id)
    enqueue_projection(queue)  # what the API does after its append

    done = reconciled(redis_store, queue)

    assert done.lagging == [battle_id] and not done.enqueued
    assert queue.count == 1


def test_every_lagging_battle_of_several_pages_is_marked_pending(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reconciling, "PAGE", 2)
    battles = [new_battle(redis_store, commands=1) for _ in range(5)]
    project_battle(redis_store, redis_store, battles[2])

    done = reconciled(redis_store, projection_queue(redis_client))

    expected = [b for b in redis_store.battle_ids() if b != battles[2]]
    assert (done.battles, done.lagging, done.enqueued) == (5, expected, True)
    assert sorted(redis_store.take_pending(10)) == sorted(expected)
