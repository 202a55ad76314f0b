"""The fold lock on every backend: one folder at a time, renewed by its owner, lapsing after a crash."""

from __future__ import annotations

import time

from tests.fixtures.redis_server import Backend

TTL_MS = 2_000


def test_a_held_lock_refuses_other_folders_until_released(store: Backend) -> None:
    assert store.try_lock("b1", "worker-a", TTL_MS)
    assert not store.try_lock("b1", "worker-b", TTL_MS)

    store.unlock("b1", "worker-b")  # not the owner: changes nothing
    assert not store.try_lock("b1", "worker-b", TTL_MS)

    store.unlock("b1", "worker-a")
    assert store.try_lock("b1", "worker-b", TTL_MS)


def test_the_owner_renews_its_lock_past_the_first_time_to_live(store: Backend) -> None:
    assert store.try_lock("b1", "worker-a", TTL_MS)
    time.sleep(TTL_MS * 0.6 / 1000)

    assert store.try_lock("b1", "worker-a", TTL_MS)  # between two batches of a long fold
    time.sleep(TTL_MS * 0.6 / 1000)  # past the first lease, within the renewed one

    assert not store.try_lock("b1", "worker-b", TTL_MS)


def test_a_lock_whose_owner_died_lapses(store: Backend) -> None:
    assert store.try_lock("b1", "crashed-worker", 100)
    time.sleep(0.3)

    assert store.try_lock("b1", "worker-b", TTL_MS)
