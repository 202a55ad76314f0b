"""Pathfinder house rules at creation (spec pathfinder §5, PF-GEN-02): pinned with their defaults, and an
unknown name or a bad value is a 422 naming the option."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from rules.registry import get_ruleset
from tests.service.helpers import assert_problem

HOUSE_RULES = {
    "crew_equivalence": "printed",
    "diminished_doubles_load": True,
    "diminished_crew_can_move": True,
    "max_range_increments": 3,
    "targeting_platform": True,
    "ram_always_nonproficient": True,
    "gun_training_on_siege_firearms": True,
    "field_repair_light_ranged_dc": 28,
    "validate_feat_prerequisites": False,
}


def create(client: FlaskClient, options: Any) -> Any:
    return client.post("/battles", json={"ruleset": "pathfinder", "options": options})


def test_a_battle_without_options_pins_the_spec_defaults(client: FlaskClient) -> None:
    created = create(client, {})

    assert created.status_code == 201
    assert created.get_json()["options"] == get_ruleset("pathfinder").default_options
    assert created.get_json()["options"]["max_range_increments"] == 10


def test_every_house_rule_can_be_chosen_at_creation(client: FlaskClient) -> None:
    created = create(client, HOUSE_RULES)

    assert created.status_code == 201, created.get_json()
    assert created.get_json()["options"] == HOUSE_RULES
    summary = client.get(f"/battles/{created.get_json()['id']}").get_json()
    assert summary["options"] == HOUSE_RULES


def test_one_house_rule_keeps_the_other_defaults(client: FlaskClient) -> None:
    options = create(client, {"crew_equivalence": "printed"}).get_json()["options"]

    assert options == {**get_ruleset("pathfinder").default_options, "crew_equivalence": "printed"}


def test_unknown_or_bad_options_are_a_422_naming_each_option(client: FlaskClient) -> None:
    bad = {
        "crew_equivalence": "seed",
        "max_range_increments": 0,
        "diminished_doubles_load": "yes",
        "field_repair_light_ranged_dc": 30.5,
        "validate_feat_prerequisites": 1,
        "tie_rule": "both_destroyed",  # an epic option
        "fog": True,
    }

    body = assert_problem(create(client, bad), 422, "validation")

    assert set(body["errors"]["options"]) == set(bad)


@pytest.mark.parametrize("options", [[], "aon", None], ids=["list", "string", "null"])
def test_options_that_are_not_an_object_are_a_422(client: FlaskClient, options: Any) -> None:
    body = assert_problem(create(client, options), 422, "validation")

    assert "options" in body["errors"]
