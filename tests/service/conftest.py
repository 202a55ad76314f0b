"""Fixtures of the API tests: a stand-in worker for `Prefer: wait`."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from eventstore.redis_store import RedisEventStore
from workers.projection import project_battle


@pytest.fixture
def folder(redis_store: RedisEventStore) -> Iterator[threading.Event]:
    """A stand-in worker: folds every battle with pending entries until the test ends."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(0.01):
            for battle_id in redis_store.take_pending(100):
                project_battle(redis_store, redis_store, battle_id)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield stop
    stop.set()
    thread.join()
