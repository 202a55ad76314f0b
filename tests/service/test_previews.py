"""`POST /battles/{id}/previews` and `undo` over HTTP on the real store: odds without a trace, and an undo
that keeps the record."""

from __future__ import annotations

from typing import Any

import redis
from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from tests.fixtures.redis_server import Backend
from tests.service.helpers import (
    CLIMB_FIGHT,
    accepted,
    assert_problem,
    bearer,
    create_battle,
    fold,
    head_version,
    mint,
    outcome,
)
from workers.projection import SNAPSHOT_EVERY

ASSAULT = CLIMB_FIGHT[-1]
BEFORE_ASSAULT = CLIMB_FIGHT[:-1]


def ready_to_assault(client: FlaskClient, store: Backend) -> str:
    battle_id = create_battle(client)
    for command in BEFORE_ASSAULT:
        accepted(client, battle_id, command)
    fold(store, battle_id)
    return battle_id


def every_key(client: redis.Redis[Any], battle_id: str) -> dict[bytes, bytes | None]:
    """The battle's keys but its tokens' rate counters, which a preview spends like any request."""
    found = sorted(client.scan_iter(match=f"siege:{{{battle_id}}}:*"))
    return {key: client.dump(key) for key in found if b":rate:" not in key}


def test_a_preview_answers_the_odds_appends_nothing_and_changes_no_key_of_the_battle(
    client: FlaskClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle_id = ready_to_assault(client, redis_store)
    before, head = every_key(redis_client, battle_id), head_version(client, battle_id)
    answered = client.post(f"/battles/{battle_id}/previews", json=ASSAULT)
    assert answered.status_code == 200, answered.get_json()
    body = answered.get_json()
    assert (body["exact"], body["samples"], body["status"]["applied"]) == (True, 11 * 11, 1.0)  # two 2d6 sums
    assert set(body["fields"]["result"]["p"]) == {"attacker_wins", "tie", "defender_wins"}
    assert every_key(redis_client, battle_id) == before
    assert head_version(client, battle_id) == head


def test_a_preview_refuses_dice_and_conclude_and_a_side_token_acting_for_the_other_side(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = ready_to_assault(client, redis_store)
    previews = f"/battles/{battle_id}/previews"
    assert_problem(client.post(previews, json={**ASSAULT, "dice": {"attacker": [6, 6]}}), 422, "validation")
    assert_problem(client.post(previews, json={"type": "conclude"}), 422, "validation")
    defender = mint(client, battle_id, "side:defender")["token"]
    assert_problem(client.post(previews, json=ASSAULT, headers=bearer(defender)), 403, "forbidden")
    observer = mint(client, battle_id, "observer")["token"]
    assert_problem(client.post(previews, json=ASSAULT, headers=bearer(observer)), 403, "forbidden")
    attacker = mint(client, battle_id, "side:attacker")["token"]
    assert client.post(previews, json=ASSAULT, headers=bearer(attacker)).status_code == 200


def test_undo_over_http_restores_the_state_keeps_both_entries_and_the_audit_lists_the_discarded_rolls(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = ready_to_assault(client, redis_store)
    before = client.get(f"/battles/{battle_id}/state").get_json()
    assault = accepted(client, battle_id, ASSAULT)
    undo = accepted(client, battle_id, {"type": "undo"})
    fold(redis_store, battle_id)
    after = client.get(f"/battles/{battle_id}/state").get_json()
    assert {**after, "version": None} == {**before, "version": None}
    assert outcome(client, battle_id, undo)["result"] == {"undone_version": assault}
    assert outcome(client, battle_id, assault)["status"] == "applied"  # the undone entry's record stands
    audit = client.get(f"/battles/{battle_id}/audit").get_json()
    assert audit["ok"] is True
    (listed,) = audit["undos"]
    assert listed["version"] == undo and listed["undone_version"] == assault
    assert listed["discarded_rolls"] == outcome(client, battle_id, assault)["rolls"]


def test_undo_on_a_fresh_battle_is_rejected_nothing_to_undo_and_a_side_may_not_send_it(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    version = accepted(client, battle_id, {"type": "undo"})
    fold(redis_store, battle_id)
    assert outcome(client, battle_id, version)["reason"] == "nothing_to_undo"
    side = mint(client, battle_id, "side:attacker")["token"]
    sent = client.post(f"/battles/{battle_id}/commands", json={"type": "undo"}, headers=bearer(side))
    assert_problem(sent, 403, "forbidden")


def test_an_undo_past_a_snapshot_folds_the_earlier_state_from_the_store_and_restores_it_exactly(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    """Past SNAPSHOT_EVERY versions the earlier state comes from the nearest stored snapshot plus the log,
    folded by a fresh rewinder (each projection run builds its own), not from anything a fold kept."""
    battle_id = ready_to_assault(client, redis_store)
    while head_version(client, battle_id) < SNAPSHOT_EVERY + 20:
        accepted(client, battle_id, {"type": "advance_phase"})
    fold(redis_store, battle_id)
    assert redis_store.snapshot_at_or_before(battle_id, SNAPSHOT_EVERY + 20) is not None
    before = client.get(f"/battles/{battle_id}/state").get_json()
    last = accepted(client, battle_id, {"type": "advance_phase"})
    fold(redis_store, battle_id)
    undo = accepted(client, battle_id, {"type": "undo"})
    fold(redis_store, battle_id)
    after = client.get(f"/battles/{battle_id}/state").get_json()
    assert outcome(client, battle_id, undo)["result"] == {"undone_version": last}
    assert {**after, "version": None} == {**before, "version": None}
    assert client.get(f"/battles/{battle_id}/audit").get_json()["ok"] is True
