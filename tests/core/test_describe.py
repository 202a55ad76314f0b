"""GET /rulesets/{name} has one shape for every ruleset, read off the command records."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from rules.describe import describe
from rules.registry import get_ruleset, ruleset_names
from schemas.commands import load_command

COMMAND_KEYS = {"doc", "phases", "dice", "referee_only", "body", "example"}
SLOT_KEYS = {"die", "per_roll", "doc", "drawn_by"}


def test_both_rulesets_are_described_in_the_same_shape() -> None:
    epic, pathfinder = describe(get_ruleset("epic")), describe(get_ruleset("pathfinder"))
    assert set(epic) - {"catalog"} == set(pathfinder) - {"catalog"}
    for described in (epic, pathfinder):
        assert all(set(command) == COMMAND_KEYS for command in described["commands"].values())
        assert all(set(slot) == SLOT_KEYS for slot in described["dice_slots"].values())
        assert all(set(option) == {"default", "doc", "schema"} for option in described["options"].values())
        assert all(isinstance(meaning, str) and meaning for meaning in described["reason_codes"].values())


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_every_example_fits_its_json_schema_and_the_api_schema(ruleset: str) -> None:
    for name, command in describe(get_ruleset(ruleset))["commands"].items():
        Draft202012Validator.check_schema(command["body"])
        assert list(Draft202012Validator(command["body"]).iter_errors(command["example"])) == [], name
        assert load_command(ruleset, command["example"]).type == name


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_the_json_schema_refuses_what_the_api_refuses(ruleset: str) -> None:
    for name, command in describe(get_ruleset(ruleset))["commands"].items():
        validator = Draft202012Validator(command["body"])
        assert not validator.is_valid({**command["example"], "surplus": 1}), name
        assert not validator.is_valid({**command["example"], "type": "no_such_command"}), name
