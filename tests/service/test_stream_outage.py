"""A stream outlives a store outage: the process's reader retries while the store is away, the stream keeps
its heartbeats, and once the store is back every outcome reaches it, none twice (issue 10)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from eventstore.config import connect
from eventstore.embedded import EmbeddedServer
from eventstore.redis_store import RedisEventStore
from launcher.probes import free_port
from service.app import STORE_TIMEOUT_S, create_app
from tests.fixtures.app import GmClient, config_for
from tests.service.helpers import accepted, create_battle, fold
from tests.sse import EventReader, lines_of

PHASE = {"type": "advance_phase"}
AWAY_S = 1.5  # long enough for the reader to fail and back off at least once


@pytest.fixture
def own_store(tmp_path: Path) -> Iterator[EmbeddedServer]:
    """A server of this test's own, on a fixed port, so it can go away and come back with its AOF."""
    server = EmbeddedServer(tmp_path / "store", port=free_port()).start()
    try:
        yield server
    finally:
        server.stop()


def test_a_stream_resumes_after_the_store_comes_back(own_store: EmbeddedServer) -> None:
    store = RedisEventStore(connect(own_store.url, socket_timeout=STORE_TIMEOUT_S))
    config = config_for(own_store.url, stream_heartbeat_s=0.05, rate_limit="off")
    app = create_app(config, store=store, queue_redis=connect(own_store.url))
    client = GmClient(app, app.response_class, use_cookies=False)
    battle_id = create_battle(client)
    accepted(client, battle_id, PHASE)
    fold(store, battle_id)
    response = client.get(f"/battles/{battle_id}/stream?after=0", buffered=False)
    events = EventReader(lines_of(response.response))
    try:
        seen = events.outcomes(2)
        own_store.stop()
        deadline = time.monotonic() + AWAY_S
        while time.monotonic() < deadline:  # away: heartbeats still come, from no read of the store
            assert events.until(lambda frame: bool(frame.comments)).comments == ["keep-alive"]
        own_store.start()
        for _ in range(3):
            accepted(client, battle_id, PHASE)
        fold(store, battle_id)
        seen += events.outcomes(3)
    finally:
        response.close()

    assert [e.id for e in seen] == ["1", "2", "3", "4", "5"]
