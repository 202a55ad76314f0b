"""Every integer a client sends is bounded (issue 22): the rules' own ranges where they have one, else a
ceiling no statistic comes near, so no input makes the rules loop long (a million range increments took a
preview 8.8 s) and no output passes 2^53. The document declares the bounds the server enforces."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator

from schemas.generated import INT_BOUND
from service.openapi.document import render
from tests.service.helpers import assert_problem, create_battle, send


def _integers(node: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every integer property of a schema, arrays' items included, with where it sits."""
    found: list[tuple[str, dict[str, Any]]] = []
    for name, prop in (node.get("properties") or {}).items():
        for where, leaf in ((f"{path}.{name}", prop), (f"{path}.{name}[]", prop.get("items") or {})):
            kind = leaf.get("type")
            if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
                found.append((where, leaf))
    return found


def _inputs(schemas: dict[str, Any]) -> list[str]:
    """The components a client sends: every command and option record of both rulesets."""
    return [n for n in schemas if n.startswith(("Epic", "Pathfinder")) and "Result" not in n]


def test_every_integer_a_client_sends_has_both_bounds_in_the_document() -> None:
    schemas = yaml.safe_load(render())["components"]["schemas"]
    unbounded = [
        f"{name}{where}"
        for name in _inputs(schemas)
        for where, leaf in _integers(schemas[name])
        if "enum" not in leaf and ("minimum" not in leaf or "maximum" not in leaf)
    ]
    assert _inputs(schemas) and not unbounded, unbounded
    assert all(
        abs(leaf.get("maximum", 0)) <= INT_BOUND and abs(leaf.get("minimum", 0)) <= INT_BOUND
        for name in _inputs(schemas)
        for _where, leaf in _integers(schemas[name])
    )


@pytest.mark.rule("PF-AIM-05")
def test_a_million_range_increments_is_refused_at_creation(client: FlaskClient) -> None:
    created = client.post(
        "/battles", json={"ruleset": "pathfinder", "options": {"max_range_increments": 1_000_000}}
    )
    problem = assert_problem(created, 422, "validation")
    assert "max_range_increments" in problem["errors"]["options"]
    assert (
        client.post(
            "/battles", json={"ruleset": "pathfinder", "options": {"max_range_increments": 50}}
        ).status_code
        == 201
    )


@pytest.mark.rule("EP-GEN-05")
@pytest.mark.parametrize("caf", [2**53 - 1, 21, -1])
def test_a_caf_past_any_stand_s_is_a_422_and_appends_nothing(client: FlaskClient, caf: int) -> None:
    battle_id = create_battle(client)
    stand = {"type": "add_stand", "id": "s", "stand_type": "infantry", "side": "attacker", "caf": caf,
             "speed_cm": 10, "location": {"kind": "outside"}}  # fmt: skip
    refused = send(client, battle_id, stand)
    assert "caf" in assert_problem(refused, 422, "validation")["errors"]
    assert client.get(f"/battles/{battle_id}").get_json()["version"] == 1
    assert send(client, battle_id, {**stand, "caf": 20}).status_code == 202


@pytest.mark.rule("PF-GEN-02")
def test_a_coordinate_past_the_ceiling_is_a_422(client: FlaskClient) -> None:
    battle_id = create_battle(client, ruleset="pathfinder")
    creature = {"type": "add_creature", "id": "ogre", "size": "L", "ac": 17, "hp": 30,
                "position": {"x": INT_BOUND + 1, "y": 12}}  # fmt: skip
    refused = send(client, battle_id, creature)
    assert "position" in assert_problem(refused, 422, "validation")["errors"]
    assert send(client, battle_id, {**creature, "position": {"x": INT_BOUND, "y": 12}}).status_code == 202


@pytest.mark.parametrize(
    ("body", "valid"),
    [
        ({"ruleset": "epic", "options": {"default_section_capacity": 2}}, True),
        ({"ruleset": "pathfinder", "options": {"max_range_increments": 12}}, True),
        ({"ruleset": "epic", "options": {"max_range_increments": 12}}, False),  # the other ruleset's option
        ({"ruleset": "pathfinder", "options": {"default_section_capacity": 2}}, False),
        ({"ruleset": "epic", "options": {"default_section_capacity": 101}}, False),
    ],
)
def test_the_document_takes_a_battle_s_options_as_the_server_does(
    client: FlaskClient, body: dict[str, Any], valid: bool
) -> None:
    document = yaml.safe_load(render())
    check = Draft202012Validator({"$ref": "#/components/schemas/BattleCreate", **document})
    assert check.is_valid(body) is valid
    assert (client.post("/battles", json=body).status_code == 201) is valid
