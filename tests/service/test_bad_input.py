"""A body that does not fit its schema is a 422 (or 400/413/415) problem and appends nothing
(DESIGN §5, spec epic §2)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.service.helpers import CSM, WALL, assert_problem, create_battle, head_version, send

MOVE = {"type": "move", "stand_id": "csm", "to": {"kind": "inside"}, "distance_cm": 5}
FIRE = {
    "type": "fire",
    "stand_id": "csm",
    "weapon": {"id": "bolter", "to_hit": 4},
    "target": {"section_id": "W1"},
}

# body → the field the problem must name
NOT_FITTING: dict[str, tuple[Any, str]] = {
    "unknown command type": ({"type": "teleport"}, "type"),
    "missing type": ({"id": "W1", "kind": "wall"}, "type"),
    "type not a string": ({"type": 7}, "type"),
    "unknown field": ({**WALL, "colour": "grey"}, "colour"),
    "missing required field": ({"type": "add_fortification", "kind": "wall"}, "id"),
    "enum value outside the list": ({**WALL, "kind": "moat"}, "kind"),
    "string for an integer": ({**CSM, "caf": "3"}, "caf"),
    "float for an integer": ({**CSM, "speed_cm": 10.5}, "speed_cm"),
    "boolean for an integer": ({**CSM, "caf": True}, "caf"),
    "integer for a boolean": ({**CSM, "has_cc_weapon": 1}, "has_cc_weapon"),
    "below a range": ({**CSM, "caf": -1}, "caf"),
    "save outside 2..6": ({**CSM, "save": 7}, "save"),
    "to_hit outside 2..6": ({**FIRE, "weapon": {"id": "b", "to_hit": 1}}, "weapon"),
    "positive save modifier": ({**FIRE, "weapon": {"id": "b", "to_hit": 4, "save_modifier": 1}}, "weapon"),
    "unknown location kind": ({**CSM, "location": {"kind": "orbit"}}, "location"),
    "location missing its section": ({**CSM, "location": {"kind": "at_foot"}}, "location"),
    "move into a transport": ({**MOVE, "to": {"kind": "embarked", "transport_id": "rhino"}}, "to"),
    "empty barrage": (
        {"type": "barrage", "stand_ids": [], "weapon_id": "w", "barrage_points": 1, "kind": "direct"},
        "stand_ids",
    ),
    "repeated barrage stand": (
        {"type": "barrage", "stand_ids": ["a", "a"], "weapon_id": "w", "barrage_points": 1, "kind": "direct"},
        "stand_ids",
    ),
    "empty id": ({**WALL, "id": ""}, "id"),
    "dice value 0": ({**WALL, "dice": {"save": 0}}, "dice"),
    "dice value -1": ({**WALL, "dice": {"save": [-1]}}, "dice"),
    "dice value a string": ({**WALL, "dice": {"save": ["x"]}}, "dice"),
    "dice value a float": ({**WALL, "dice": {"save": [1.5]}}, "dice"),
    "dice value a boolean": ({**WALL, "dice": {"save": True}}, "dice"),
    "unknown dice slot": ({**WALL, "dice": {"damage": [3]}}, "dice"),
    "dice not an object": ({**WALL, "dice": [3]}, "dice"),
    "conclude with fields": ({"type": "conclude", "reason": "bored"}, "reason"),
    "body not an object": ([WALL], "_schema"),
}


@pytest.mark.parametrize("body, field", NOT_FITTING.values(), ids=NOT_FITTING.keys())
def test_a_body_that_does_not_fit_is_a_422_naming_the_field_and_appends_nothing(
    client: FlaskClient, body: Any, field: str
) -> None:
    battle_id = create_battle(client)

    problem = assert_problem(send(client, battle_id, body), 422, "validation")

    assert field in problem["errors"]
    assert head_version(client, battle_id) == 1


def test_malformed_json_is_a_400_and_appends_nothing(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    posted = client.post(
        f"/battles/{battle_id}/commands", data='{"type": "advance_phase",', content_type="application/json"
    )

    assert_problem(posted, 400, "malformed-json")
    assert head_version(client, battle_id) == 1


def test_a_non_json_content_type_is_a_415_and_appends_nothing(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    posted = client.post(
        f"/battles/{battle_id}/commands", data='{"type": "advance_phase"}', content_type="text/plain"
    )

    assert_problem(posted, 415, "unsupported-media-type")
    assert head_version(client, battle_id) == 1


def test_an_oversized_body_is_a_413_and_appends_nothing(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    huge = {**WALL, "adjacent": ["W" + str(n) for n in range(10_000)]}

    assert_problem(send(client, battle_id, huge), 413, "body-too-large")
    assert head_version(client, battle_id) == 1


def test_a_command_for_an_unknown_battle_is_a_404(client: FlaskClient) -> None:
    assert_problem(send(client, "nope", WALL), 404, "battle-not-found")


def test_an_overlong_idempotency_key_is_a_422_and_appends_nothing(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    problem = assert_problem(
        send(client, battle_id, WALL, headers={"Idempotency-Key": "k" * 256}), 422, "validation"
    )

    assert "Idempotency-Key" in problem["errors"]
    assert head_version(client, battle_id) == 1


def test_bad_creation_bodies_create_nothing(client: FlaskClient, redis_store: Any) -> None:
    for body in ({"ruleset": "epic", "options": {"tie_rule": 1}}, {"ruleset": 5}, {}):
        assert_problem(client.post("/battles", json=body), 422, "validation")
    assert_problem(client.post("/battles", data="{", content_type="application/json"), 400, "malformed-json")
    assert_problem(client.post("/battles", data="ruleset=epic"), 415, "unsupported-media-type")
    assert list(redis_store.battle_ids()) == []


@pytest.mark.parametrize(
    "raw",
    [
        '{"type": "advance_phase", "dice": {"jam": NaN}}',
        "[" * 5_000 + "]" * 5_000,
        '{"type": "advance_phase"} x',
        "\xff",
    ],
    ids=["NaN", "nested too deep", "trailing garbage", "not UTF-8"],
)
def test_bodies_that_are_not_json_are_a_400_and_append_nothing(client: FlaskClient, raw: str) -> None:
    battle_id = create_battle(client)

    posted = client.post(
        f"/battles/{battle_id}/commands", data=raw.encode("latin-1"), content_type="application/json"
    )

    assert_problem(posted, 400, "malformed-json")
    assert head_version(client, battle_id) == 1
