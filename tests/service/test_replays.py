"""`POST /battles/{id}/replays` enqueues a replay job by name on the replay queue; `GET .../replays/{job}`
reads it back for any reader of the battle, and only for that battle. (tests/processes runs the jobs.)"""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from rq import Queue
from rq.serializers import JSONSerializer

from eventstore.queues import REPLAY
from tests.service.helpers import assert_problem, bearer, create_battle, mint


def test_the_gm_starts_a_replay_and_reads_it_queued(
    client: FlaskClient, redis_client: redis.Redis[Any]
) -> None:
    battle_id = create_battle(client)

    started = client.post(f"/battles/{battle_id}/replays", json={"mode": "verify"})

    assert started.status_code == 202, started.get_json()
    job_id = started.get_json()["job_id"]
    assert started.headers["Location"] == f"/battles/{battle_id}/replays/{job_id}"
    read = client.get(started.headers["Location"])
    assert read.get_json() == {
        "job_id": job_id,
        "mode": "verify",
        "status": "queued",
        "result": None,
        "error": None,
    }
    [job] = Queue(REPLAY.queue, connection=redis_client, serializer=JSONSerializer).jobs
    assert (job.id, job.func_name, job.args) == (job_id, REPLAY.path, [battle_id, "verify"])


def test_an_observer_reads_a_replay_but_may_not_start_one(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    location = client.post(f"/battles/{battle_id}/replays", json={"mode": "rebuild"}).headers["Location"]
    observer = bearer(mint(client, battle_id, "observer")["token"])

    refused = client.post(f"/battles/{battle_id}/replays", json={"mode": "verify"}, headers=observer)

    assert_problem(refused, 403, "forbidden")
    assert client.get(location, headers=observer).get_json()["status"] == "queued"


def test_a_replay_job_of_another_battle_is_not_found_here(client: FlaskClient) -> None:
    mine, theirs = create_battle(client), create_battle(client)
    job_id = client.post(f"/battles/{theirs}/replays", json={"mode": "verify"}).get_json()["job_id"]

    assert_problem(client.get(f"/battles/{mine}/replays/{job_id}"), 404, "replay-not-found")
    assert_problem(client.get(f"/battles/{mine}/replays/no-such-job"), 404, "replay-not-found")


@pytest.mark.parametrize("body", [{}, {"mode": "erase"}, {"mode": "verify", "extra": 1}, {"mode": 1}])
def test_a_replay_needs_a_known_mode_and_nothing_else(client: FlaskClient, body: dict[str, Any]) -> None:
    battle_id = create_battle(client)

    assert_problem(client.post(f"/battles/{battle_id}/replays", json=body), 422, "validation")


def test_an_unknown_battle_has_no_replays(client: FlaskClient) -> None:
    assert_problem(client.post("/battles/nope/replays", json={"mode": "verify"}), 404, "battle-not-found")
