"""GET /rulesets/{name} has one shape for every ruleset, read off the command records."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from rules.describe import describe
from rules.dice import MAX_VALUES_PER_SLOT
from rules.fold import CONCLUDE, UNDO
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


def test_the_dice_slots_say_their_die_values_per_roll_and_the_commands_that_draw_them() -> None:
    """Epic spec §4 and EP-GATE-05/06: `attacker` 2D6 in an assault, `jam` a d6 per gate operated or closed;
    pathfinder's `damage` dice are the engine's or the ammunition's (PF-GEN-06)."""
    epic = describe(get_ruleset("epic"))["dice_slots"]
    assert (epic["attacker"]["die"], epic["attacker"]["per_roll"], epic["attacker"]["drawn_by"]) == (
        "d6",
        2,
        ["assault"],
    )
    assert (epic["jam"]["die"], epic["jam"]["per_roll"]) == ("d6", 1)
    assert set(epic["jam"]["drawn_by"]) == {"advance_phase", "operate_gate"}
    damage = describe(get_ruleset("pathfinder"))["dice_slots"]["damage"]
    assert (damage["die"], set(damage["drawn_by"])) == ("varies", {"fire", "ram", "crush"})


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_the_dice_member_takes_a_positive_integer_or_a_short_list_of_them_per_known_slot(
    ruleset: str,
) -> None:
    described = describe(get_ruleset(ruleset))
    slot = next(iter(described["dice_slots"]))
    dice = Draft202012Validator(described["commands"][CONCLUDE]["body"]["properties"]["dice"])
    assert dice.is_valid({slot: 3}) and dice.is_valid({slot: [1, 2]}) and dice.is_valid({})
    assert dice.is_valid({slot: [1] * MAX_VALUES_PER_SLOT})
    for refused in ({slot: 0}, {slot: [0]}, {slot: 1.5}, {slot: "3"}, {slot: [1] * (MAX_VALUES_PER_SLOT + 1)},
                    {"no_such_slot": 1}):  # fmt: skip
        assert not dice.is_valid(refused), refused


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_conclude_and_undo_are_every_rulesets_referee_commands_without_fields(ruleset: str) -> None:
    described = describe(get_ruleset(ruleset))
    for name in (CONCLUDE, UNDO):
        command = described["commands"][name]
        assert (command["phases"], command["dice"], command["referee_only"]) == ([], [], True)
        assert command["example"] == {"type": name}
        body = command["body"]
        assert (body["title"], body["required"], body["additionalProperties"]) == (name, ["type"], False)
        assert body["properties"]["type"] == {"const": name} and body["description"] == command["doc"]
        assert Draft202012Validator(body).is_valid({"type": name})
        assert not Draft202012Validator(body).is_valid({"type": name, "extra": 1})
    assert "reveals the dice seed" in described["commands"][CONCLUDE]["doc"]
    assert "undone_version" in described["commands"][UNDO]["doc"]


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_a_ruleset_is_described_by_its_name_title_version_phases_and_options(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    described = describe(rules)
    assert (described["name"], described["title"], described["rules_version"]) == (
        rules.name, rules.title, rules.rules_version,
    )  # fmt: skip
    assert described["phases"] == list(rules.phases) and described["reason_codes"] == dict(rules.reasons)
    for name, option in described["options"].items():
        assert option["default"] == rules.default_options[name] == option["schema"]["default"], name
    if ruleset == "epic":
        assert (
            described["phases"][0] == "orders"
            and described["options"]["tie_rule"]["default"] == "none_destroyed"
        )
        give_order = described["commands"]["give_order"]
        assert give_order["phases"] == ["orders"] and give_order["example"]["type"] == "give_order"
