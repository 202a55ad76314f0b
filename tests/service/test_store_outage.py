"""Store outages (issue 8): while Redis does not answer, commands, reads and /readyz answer 503 with
`Retry-After`, never 500, nothing is appended, and all recovers by itself once Redis is back."""

from __future__ import annotations

import pytest
from flask import Flask
from redis import exceptions as redis_errors

from eventstore.config import connect
from eventstore.embedded import EmbeddedServer
from eventstore.memory_store import MemoryEventStore
from eventstore.records import Appended, NewEntry, TokenRecord
from eventstore.redis_store import RedisEventStore
from service.app import create_app
from tests.fixtures.app import GmClient, config_for
from tests.service.helpers import CSM, WALL, assert_problem


@pytest.fixture
def outage_client(own_server: EmbeddedServer) -> GmClient:
    """The app with its store, queue and rate-limit counters all on the server that will go down."""
    url = own_server.url
    app = create_app(
        config_for(url), store=RedisEventStore(connect(url, socket_timeout=2)), queue_redis=connect(url)
    )
    return GmClient(app, app.response_class, use_cookies=False)


def test_while_the_store_is_down_everything_is_a_503_to_retry_and_nothing_is_appended(
    own_server: EmbeddedServer, outage_client: GmClient
) -> None:
    client = outage_client
    battle_id = client.post("/battles", json={"ruleset": "epic"}).get_json()["id"]
    assert client.post(f"/battles/{battle_id}/commands", json=WALL).status_code == 202

    own_server.stop()

    for answer in (
        client.post(f"/battles/{battle_id}/commands", json=CSM, headers={"Idempotency-Key": "k1"}),
        client.post(f"/battles/{battle_id}/commands", json=CSM),
        client.get(f"/battles/{battle_id}"),
        client.get(f"/battles/{battle_id}/state"),
        client.get(f"/battles/{battle_id}/events"),
        client.post("/battles", json={"ruleset": "epic"}),
    ):
        problem = assert_problem(answer, 503, "store-unavailable")
        assert answer.headers["Retry-After"] == "2"
        assert "Idempotency-Key" in problem["detail"]
    not_ready = assert_problem(client.get("/readyz"), 503, "not-ready")
    assert not_ready["checks"] == {"store": "unavailable", "queue": "unavailable"}
    assert client.get("/readyz").headers["Retry-After"] == "2"

    own_server.start()  # same port, same AOF

    assert client.get("/readyz").status_code == 200
    assert client.get(f"/battles/{battle_id}").get_json()["version"] == 2  # the refused commands left nothing
    retried = client.post(f"/battles/{battle_id}/commands", json=CSM, headers={"Idempotency-Key": "k1"})
    assert retried.status_code == 202
    assert retried.get_json()["version"] == 3


def test_readyz_names_only_the_dependency_that_is_down(own_server: EmbeddedServer, redis_url: str) -> None:
    app = create_app(
        config_for(redis_url), store=RedisEventStore(connect(redis_url)), queue_redis=connect(own_server.url)
    )
    own_server.stop()

    answer = app.test_client().get("/readyz")

    problem = assert_problem(answer, 503, "not-ready")
    assert problem["checks"] == {"store": "ok", "queue": "unavailable"}
    assert problem["detail"] == "Not answering: the queue Redis."
    assert answer.headers["Retry-After"] == "2"


class FailingStore(MemoryEventStore):
    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def create_battle(
        self, battle_id: str, created: NewEntry, server_seed: str, *, token: TokenRecord | None = None
    ) -> Appended:
        raise self.error


@pytest.mark.parametrize(
    "error",
    [
        redis_errors.BusyLoadingError("Redis is loading the dataset in memory"),
        redis_errors.TimeoutError("Timeout reading from socket"),
        redis_errors.ClusterDownError("CLUSTERDOWN The cluster is down"),
    ],
    ids=["loading its AOF", "timing out", "a cluster without quorum"],
)
def test_a_store_loading_timing_out_or_without_quorum_is_a_503_too(redis_url: str, error: Exception) -> None:
    app: Flask = create_app(config_for(redis_url), store=FailingStore(error), queue_redis=connect(redis_url))

    answer = app.test_client().post("/battles", json={"ruleset": "epic"})

    assert_problem(answer, 503, "store-unavailable")
    assert answer.headers["Retry-After"] == "2"
