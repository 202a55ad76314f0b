"""Invariant 5: a worker SIGKILLed while it folds a long backlog is replaced, and the projection converges
to the log head and to what a fresh replay gives, byte for byte."""

from __future__ import annotations

import time
from typing import Any

import pytest
from redis import Redis

from eventstore import keys
from eventstore.config import connect
from eventstore.redis_store import RedisEventStore
from tests.fixtures.processes import LiveService
from tests.processes.client import eventually
from tests.workers.logs import fresh_state, new_battle, projected_version
from workers.queue import enqueue_projection, projection_queue
from workers.replay import verify

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]
BACKLOG = 5_000  # appended straight through the store: long enough to be caught folding


def caught_folding(client: Redis[Any], store: RedisEventStore, battle_id: str, head: int) -> bool:
    """Wait (bounded) until a worker holds the battle's fold lock; False if it finished unseen."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and projected_version(store, battle_id) < head:
        if client.exists(keys.lock(battle_id)):
            return True
        time.sleep(0.002)
    return False


def test_a_worker_killed_mid_projection_is_replaced_and_the_projection_converges(
    live_service: LiveService,
) -> None:
    store, client = live_service.store(), connect(live_service.redis_url)
    battle_id = new_battle(store, commands=BACKLOG)
    head = store.head(battle_id).version
    if store.mark_pending(battle_id):  # as the API does after an append
        enqueue_projection(projection_queue(client))
    assert caught_folding(client, store, battle_id, head), "the backlog was folded before it could be caught"

    for worker in live_service.workers:
        live_service.kill_worker(worker)
    killed_at = projected_version(store, battle_id)
    live_service.start_worker()

    eventually(lambda: projected_version(store, battle_id) == head, 60, "the replacement to reach the head")
    saved = store.projection(battle_id)
    assert killed_at <= head
    assert saved is not None and saved.state == fresh_state(store, battle_id)
    assert verify(store, store, battle_id).ok
