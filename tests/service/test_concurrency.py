"""Optimistic concurrency over HTTP (DESIGN §4.1, §4.2): ETags name the chain hash a representation
reflects; If-Match on a command holds only at that head, else 412 with the current version, nothing
appended; two writers racing with the same If-Match: exactly one wins each round."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from eventstore.chain import verify_chain
from eventstore.redis_store import RedisEventStore
from tests.service.helpers import (
    CSM,
    WALL,
    accepted,
    assert_problem,
    bearer,
    create_battle,
    fold,
    head_version,
    mint,
    send,
)

ROUNDS = 15
API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"  # the HTTP contract, moved from the README
ADVANCE = {"type": "advance_phase"}


def test_every_read_of_a_battle_is_tagged_with_a_chain_hash(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    version = accepted(client, battle_id, WALL)
    fold(redis_store, battle_id)
    head = redis_store.head(battle_id).hash
    tagged = f'"{head}"'

    assert client.get(f"/battles/{battle_id}").headers["ETag"] == tagged
    assert client.get(f"/battles/{battle_id}/state").headers["ETag"] == tagged
    assert client.get(f"/battles/{battle_id}/events/{version}").headers["ETag"] == tagged
    assert client.get(f"/battles/{battle_id}/events").headers["ETag"] == tagged
    first = redis_store.entry(battle_id, 1)
    assert first is not None
    assert client.get(f"/battles/{battle_id}/state?at=1").headers["ETag"] == f'"{first.hash}"'


def test_tags_change_when_pending_outcomes_land(client: FlaskClient, redis_store: RedisEventStore) -> None:
    battle_id = create_battle(client)
    version = accepted(client, battle_id, WALL)
    pending_event = client.get(f"/battles/{battle_id}/events/{version}").headers["ETag"]
    pending_page = client.get(f"/battles/{battle_id}/events").headers["ETag"]

    fold(redis_store, battle_id)

    assert pending_event.endswith('/pending"') and pending_page.endswith('/pending2"')
    for path, before in ((f"/events/{version}", pending_event), ("/events", pending_page)):
        after = client.get(f"/battles/{battle_id}{path}", headers={"If-None-Match": before})
        assert after.status_code == 200 and after.headers["ETag"] != before


@pytest.mark.parametrize("path", ["", "/state", "/events", "/events/1", "/state?at=1"])
def test_an_unchanged_read_answers_304(client: FlaskClient, redis_store: RedisEventStore, path: str) -> None:
    battle_id = create_battle(client)
    fold(redis_store, battle_id)
    etag = client.get(f"/battles/{battle_id}{path}").headers["ETag"]

    again = client.get(f"/battles/{battle_id}{path}", headers={"If-None-Match": etag})

    assert again.status_code == 304 and again.headers["ETag"] == etag and again.data == b""


@pytest.mark.parametrize("read", ["", "/state", "/events", "/events/2"])
def test_if_match_takes_the_etag_of_any_read_at_the_head(
    client: FlaskClient, redis_store: RedisEventStore, read: str
) -> None:
    battle_id = create_battle(client)
    accepted(client, battle_id, WALL)
    etag = client.get(f"/battles/{battle_id}{read}").headers["ETag"]  # pending or not: the head is named

    assert send(client, battle_id, CSM, headers={"If-Match": etag}).status_code == 202


@pytest.mark.parametrize("header", ['"2"', '"nope", "2"', 'W/"2", "2"', "*"])
def test_if_match_takes_the_head_version_lists_and_any(client: FlaskClient, header: str) -> None:
    battle_id = create_battle(client)
    accepted(client, battle_id, WALL)
    assert send(client, battle_id, CSM, headers={"If-Match": header}).status_code == 202


def test_if_match_any_skips_the_check_and_the_api_doc_and_the_document_say_so(client: FlaskClient) -> None:
    """RFC 9110 §13.1.1: `*` holds for any current representation, and every battle has one (issue 22:
    the README, where the HTTP contract was then, said anything but the head was a 412)."""
    battle_id = create_battle(client)
    accepted(client, battle_id, WALL)

    assert send(client, battle_id, CSM, headers={"If-Match": "*"}).status_code == 202
    operation = client.get("/openapi.json").get_json()["paths"]["/battles/{battle_id}/commands"]["post"]
    [documented] = [p["description"] for p in operation["parameters"] if p["name"] == "If-Match"]
    assert "`*`" in documented
    assert "`If-Match: *`" in API_DOC.read_text(encoding="utf-8").split("**`If-Match`**", 1)[1][:600]


@pytest.mark.parametrize("read", ["", "/state"])
def test_a_weak_if_match_never_matches_a_write(client: FlaskClient, read: str) -> None:
    """RFC 9110 §13.1.1: If-Match compares strongly, so `W/` before the head's own tag is a 412."""
    battle_id = create_battle(client)
    accepted(client, battle_id, WALL)
    head_tag = client.get(f"/battles/{battle_id}{read}").headers["ETag"]

    for weak in (f"W/{head_tag}", 'W/"2"'):
        refused = send(client, battle_id, CSM, headers={"If-Match": weak})
        assert assert_problem(refused, 412, "stale-version")["current_version"] == 2
    assert head_version(client, battle_id) == 2


@pytest.mark.parametrize("read", ["", "/state", "/events/1"])
def test_an_etag_read_before_the_head_moved_is_a_412_with_the_current_version(
    client: FlaskClient, redis_store: RedisEventStore, read: str
) -> None:
    battle_id = create_battle(client)
    fold(redis_store, battle_id)
    etag = client.get(f"/battles/{battle_id}{read}").headers["ETag"]
    accepted(client, battle_id, WALL)

    problem = assert_problem(send(client, battle_id, CSM, headers={"If-Match": etag}), 412, "stale-version")

    assert problem["current_version"] == 2
    assert head_version(client, battle_id) == 2


def test_two_writers_racing_with_one_if_match_win_one_round_each(
    app: Flask, redis_store: RedisEventStore
) -> None:
    client = app.test_client()
    created = client.post("/battles", json={"ruleset": "epic"}).get_json()
    battle_id, gm = created["id"], bearer(created["gm_token"])
    writers = [app.test_client(), app.test_client()]

    for round_ in range(ROUNDS):
        etag = client.get(f"/battles/{battle_id}", headers=gm).headers["ETag"]
        statuses = _race(writers, battle_id, {**gm, "If-Match": etag})
        assert sorted(statuses) == [202, 412], f"round {round_}: {statuses}"

    assert [e.version for e in redis_store.iter_entries(battle_id)] == list(range(1, ROUNDS + 2))
    assert verify_chain(redis_store.iter_entries(battle_id)).ok


def test_side_writers_without_if_match_all_land_with_contiguous_versions(
    client: FlaskClient, app: Flask, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    for command in (WALL, CSM):
        accepted(client, battle_id, command)
    attacker = bearer(mint(client, battle_id, "side:attacker")["token"])
    writers = [app.test_client() for _ in range(3)]
    move = {"type": "move", "stand_id": "csm", "to": {"kind": "outside"}, "distance_cm": 0}

    statuses = [s for _ in range(5) for s in _race(writers, battle_id, attacker, move)]

    assert statuses == [202] * 15
    assert [e.version for e in redis_store.iter_entries(battle_id)] == list(range(1, 19))


def _race(
    writers: list[FlaskClient], battle_id: str, headers: dict[str, str], command: dict[str, Any] = ADVANCE
) -> list[int]:
    """Every writer sends at once (a barrier releases them together); their statuses."""
    barrier = threading.Barrier(len(writers))
    statuses: list[int] = []
    guard = threading.Lock()

    def write(writer: FlaskClient) -> None:
        barrier.wait(timeout=30)
        status = send(writer, battle_id, command, headers=headers).status_code
        with guard:
            statuses.append(status)

    threads = [threading.Thread(target=write, args=(writer,)) for writer in writers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses
