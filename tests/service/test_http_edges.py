"""HTTP edges of issue 8: duplicate names refused in linear time, an ASCII-only Idempotency-Key, and a
bound on the `Prefer: wait` answers one process holds at once."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from service.app import create_app
from tests.fixtures.app import GmClient, config_for
from tests.service.helpers import CSM, WALL, assert_problem, create_battle, head_version, send


def test_a_body_repeating_one_name_thousands_of_times_is_a_400_naming_it_once(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    body = "{" + ",".join('"type":"x"' for _ in range(1400)) + "}"  # under the test app's 16 KB cap

    refused = client.post(f"/battles/{battle_id}/commands", data=body, content_type="application/json")

    problem = assert_problem(refused, 400, "malformed-json")
    assert problem["detail"] == "duplicate member name(s): type"
    assert head_version(client, battle_id) == 1


def test_a_refusal_names_ten_repeated_members_and_counts_the_rest(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    body = "{" + ",".join(f'"k{i:03}":1,"k{i:03}":2' for i in range(25)) + "}"

    refused = client.post(f"/battles/{battle_id}/commands", data=body, content_type="application/json")

    detail = assert_problem(refused, 400, "malformed-json")["detail"]
    assert detail == "duplicate member name(s): " + ", ".join(f"k{i:03}" for i in range(10)) + " and 15 more"


@pytest.mark.parametrize("key", ["clé-1", "tab\there", "\x7f", "é" * 10])
def test_an_idempotency_key_outside_printable_ascii_is_a_422_and_appends_nothing(
    client: FlaskClient, key: str
) -> None:
    battle_id = create_battle(client)

    problem = assert_problem(
        send(client, battle_id, WALL, headers={"Idempotency-Key": key}), 422, "validation"
    )

    assert "Idempotency-Key" in problem["errors"]
    assert head_version(client, battle_id) == 1


def test_a_printable_ascii_idempotency_key_is_taken(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    key = {"Idempotency-Key": '"8e03978e-40d5-43e8-bc93-6894a57f9324" ~!@#'}

    first, again = send(client, battle_id, WALL, headers=key), send(client, battle_id, WALL, headers=key)

    assert (first.status_code, again.status_code) == (202, 202)
    assert head_version(client, battle_id) == 2


def test_past_the_waiters_cap_a_prefer_wait_is_answered_202_at_once(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str
) -> None:
    """A held wait keeps its thread; the next one past SIEGE_MAX_WAITERS declines the preference."""
    app = create_app(
        config_for(redis_url, max_waiters=1, max_wait_s=3.0), store=redis_store, queue_redis=redis_client
    )
    client = GmClient(app, app.response_class, use_cookies=False)
    battle_id = create_battle(client)
    wait = {"Prefer": "wait=3"}
    first: list[int] = []
    held = threading.Thread(
        target=lambda: first.append(send(client, battle_id, WALL, headers=wait).status_code)
    )
    held.start()
    while head_version(client, battle_id) < 2:  # the first command is in; its wait holds the one waiter
        time.sleep(0.01)

    declined = send(client, battle_id, CSM, headers=wait)

    assert held.is_alive()
    assert declined.status_code == 202
    assert "Preference-Applied" not in declined.headers
    held.join()
    assert first == [202]  # no worker folded it: the wait ran out
