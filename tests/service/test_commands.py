"""Appending commands (DESIGN §5): 202 and Location, outcomes decided by the fold, Prefer: wait, If-Match,
Idempotency-Key."""

from __future__ import annotations

import threading

import pytest
from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from tests.service.helpers import (
    CSM,
    GOFF,
    WALL,
    accepted,
    assert_problem,
    create_battle,
    fold,
    head_version,
    outcome,
    send,
)


def test_a_command_is_accepted_with_202_and_the_location_of_its_entry(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    posted = send(client, battle_id, WALL)

    assert posted.status_code == 202
    body = posted.get_json()
    assert body["status"] == "accepted"
    assert body["version"] == 2
    assert posted.headers["Location"] == f"/battles/{battle_id}/events/2"
    entry = client.get(posted.headers["Location"]).get_json()
    assert entry["hash"] == body["hash"]
    assert entry["type"] == "add_fortification"
    assert entry["data"] == {"id": "W1", "kind": "wall"}


def test_the_log_keeps_the_command_as_sent_with_dice_apart(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    version = accepted(client, battle_id, {**WALL, "dice": {"save": [1, 2], "jam": 4}})

    entry = client.get(f"/battles/{battle_id}/events/{version}").get_json()
    assert entry["data"] == {"id": "W1", "kind": "wall"}
    assert entry["dice"] == {"save": [1, 2], "jam": 4}
    assert entry["schema_version"] == 1
    assert entry["recorded_at"].endswith("Z")


def test_the_outcome_is_null_while_pending_and_filled_by_the_fold(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    version = accepted(client, battle_id, WALL)

    assert outcome(client, battle_id, version) is None
    fold(redis_store, battle_id)

    applied = outcome(client, battle_id, version)
    assert applied["status"] == "applied"
    assert applied["version"] == version
    assert applied["result"]["section"]["id"] == "W1"


@pytest.mark.rule("EP-TIME-06")
def test_an_illegal_command_is_logged_and_comes_back_rejected_with_its_reason(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    accepted(client, battle_id, WALL)

    version = accepted(client, battle_id, {"type": "repair", "gate_id": "W1"})
    fold(redis_store, battle_id)

    rejected = outcome(client, battle_id, version)
    assert rejected["status"] == "rejected"
    assert rejected["reason"] == "wrong_phase"
    assert rejected["result"] is None


def test_unknown_ids_are_judged_by_the_rules_not_the_schema(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)

    version = accepted(client, battle_id, {"type": "climb", "stand_id": "ghost", "section_id": "W9"})
    fold(redis_store, battle_id)

    assert outcome(client, battle_id, version)["reason"] == "unknown_entity"


def test_both_ids_of_give_order_are_a_rejected_invalid_field_not_a_422(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    for command in (WALL, GOFF):
        accepted(client, battle_id, command)

    version = accepted(
        client, battle_id, {"type": "give_order", "stand_id": "goff", "gate_id": "W1", "order": "charge"}
    )
    fold(redis_store, battle_id)

    assert outcome(client, battle_id, version)["reason"] == "invalid_field"


def test_supplied_dice_above_the_die_are_a_rejected_outcome(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    accepted(client, battle_id, {"type": "add_fortification", "id": "G1", "kind": "gate"})
    accepted(client, battle_id, {"type": "give_order", "gate_id": "G1", "order": "charge"})
    accepted(client, battle_id, {"type": "advance_phase"})

    version = accepted(
        client, battle_id, {"type": "operate_gate", "gate_id": "G1", "action": "open", "dice": {"jam": 7}}
    )
    fold(redis_store, battle_id)

    assert outcome(client, battle_id, version)["reason"] == "dice_value_out_of_range"


def test_prefer_wait_answers_200_with_the_outcome(client: FlaskClient, folder: threading.Event) -> None:
    battle_id = create_battle(client)

    posted = send(client, battle_id, WALL, headers={"Prefer": "wait=5"})

    assert posted.status_code == 200
    assert posted.headers["Preference-Applied"] == "wait=5"
    assert posted.headers["Location"] == f"/battles/{battle_id}/events/2"
    body = posted.get_json()
    assert (body["version"], body["status"], body["type"]) == (2, "applied", "add_fortification")


def test_prefer_wait_also_answers_rejected_outcomes(client: FlaskClient, folder: threading.Event) -> None:
    battle_id = create_battle(client)

    posted = send(client, battle_id, {"type": "repair", "gate_id": "G1"}, headers={"Prefer": "wait=5"})

    assert posted.status_code == 200
    assert posted.get_json()["status"] == "rejected"
    assert posted.get_json()["reason"] in {"unknown_entity", "wrong_phase"}


def test_prefer_wait_falls_back_to_202_when_no_outcome_comes(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    posted = send(client, battle_id, WALL, headers={"Prefer": "wait=0"})

    assert posted.status_code == 202
    assert "Preference-Applied" not in posted.headers


def test_a_wait_as_long_as_the_redis_socket_timeout_still_ends_in_202(client: FlaskClient) -> None:
    battle_id = create_battle(client)  # redis-py reads time out after 5 s; an XREAD BLOCK of 5 s used to 500

    posted = send(client, battle_id, WALL, headers={"Prefer": "wait=5"})

    assert posted.status_code == 202
    assert head_version(client, battle_id) == 2


def test_if_match_with_the_current_etag_appends(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    etag = client.get(f"/battles/{battle_id}").headers["ETag"]

    assert send(client, battle_id, WALL, headers={"If-Match": etag}).status_code == 202


@pytest.mark.parametrize("stale", ['"' + "f" * 64 + '"', '"1"'])
def test_if_match_with_a_stale_head_is_a_412_with_the_current_version(
    client: FlaskClient, stale: str
) -> None:
    battle_id = create_battle(client)
    accepted(client, battle_id, WALL)

    body = assert_problem(send(client, battle_id, GOFF, headers={"If-Match": stale}), 412, "stale-version")

    assert body["current_version"] == 2
    assert head_version(client, battle_id) == 2


def test_the_same_idempotency_key_and_body_answer_the_original_and_append_nothing(
    client: FlaskClient,
) -> None:
    battle_id = create_battle(client)
    headers = {"Idempotency-Key": "k-1"}

    first = send(client, battle_id, WALL, headers=headers)
    again = send(client, battle_id, WALL, headers=headers)

    assert again.status_code == 202
    assert again.get_json() == first.get_json()
    assert head_version(client, battle_id) == 2


def test_the_same_idempotency_key_with_another_body_is_a_422(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    send(client, battle_id, WALL, headers={"Idempotency-Key": "k-1"})

    body = assert_problem(
        send(client, battle_id, CSM, headers={"Idempotency-Key": "k-1"}), 422, "idempotency-key-reused"
    )

    assert body["version"] == 2
    assert head_version(client, battle_id) == 2
