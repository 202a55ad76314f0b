"""EP-GEN-03 dice handling, spec §2 result fields, and the ruleset record: codec round trip, describe()."""

from __future__ import annotations

import json

import pytest

from eventstore.canonical import canonical_json
from rules.describe import describe
from rules.epic import RULESET
from rules.registry import get_ruleset
from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.epic.given import (
    advance,
    advance_to,
    applied,
    at_foot,
    climb,
    embarked,
    on,
    order,
    section,
    stand,
)

rule = pytest.mark.rule


def undefended_climb_in_close_combat(rules_table: TableFactory) -> Table:
    t = rules_table("epic")
    section(t, "S1")
    stand(t, "csm", caf=3, location=at_foot("S1"))
    order(t, "csm", "charge")
    advance(t)
    climb(t, "csm", "S1")
    advance_to(t, "close_combat")
    return t


def assault_s1(**dice: object) -> dict[str, object]:
    return {"type": "assault", "stand_id": "csm", "section_id": "S1", "dice": dice}


@rule("EP-GEN-03")
def test_given_no_dice_when_a_roll_is_needed_then_the_stream_supplies_them_deterministically(
    rules_table: TableFactory,
) -> None:
    first = undefended_climb_in_close_combat(rules_table).send(assault_s1())
    second = undefended_climb_in_close_combat(rules_table).send(assault_s1())
    assert first["status"] == "applied"
    assert [r["source"] for r in first["rolls"]] == ["stream", "stream"]
    assert [r["slot"] for r in first["rolls"]] == ["attacker", "attacker"]
    assert all(r["die"] == "d6" and 1 <= r["value"] <= 6 for r in first["rolls"])
    assert first["rolls"] == second["rolls"]
    assert first["result"]["attacker"]["dice"] == [r["value"] for r in first["rolls"]]
    assert first["result"]["dice_used"] == {"attacker": first["result"]["attacker"]["dice"]}


@rule("EP-GEN-03")
def test_given_supplied_dice_when_used_then_rolls_are_marked_client_in_draw_order(
    rules_table: TableFactory,
) -> None:
    outcome = undefended_climb_in_close_combat(rules_table).send(assault_s1(attacker=[2, 5]))
    assert outcome["rolls"] == [
        {"slot": "attacker", "die": "d6", "value": 2, "source": "client"},
        {"slot": "attacker", "die": "d6", "value": 5, "source": "client"},
    ]


@rule("EP-GEN-03")
def test_given_too_few_dice_in_a_drawn_slot_then_dice_count_mismatch(rules_table: TableFactory) -> None:
    t = undefended_climb_in_close_combat(rules_table)
    outcome = t.send(assault_s1(attacker=[6]))
    assert (outcome["status"], outcome["reason"], outcome["result"]) == (
        "rejected",
        "dice_count_mismatch",
        None,
    )
    assert t.state()["stands"][0]["pending_climb"] == {"section_id": "S1", "approach": "outside"}


@rule("EP-GEN-03")
def test_given_too_many_dice_in_a_drawn_slot_then_dice_count_mismatch(rules_table: TableFactory) -> None:
    outcome = undefended_climb_in_close_combat(rules_table).send(assault_s1(attacker=[6, 6, 6]))
    assert outcome["reason"] == "dice_count_mismatch"


@rule("EP-GEN-03")
def test_given_a_die_above_six_then_dice_value_out_of_range(rules_table: TableFactory) -> None:
    outcome = undefended_climb_in_close_combat(rules_table).send(assault_s1(attacker=[7, 1]))
    assert outcome["reason"] == "dice_value_out_of_range"


@rule("EP-GEN-03")
def test_given_a_die_above_six_in_a_slot_not_drawn_then_it_is_still_out_of_range_before_the_phase(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic")
    outcome = t.send({"type": "repair", "gate_id": "nowhere", "dice": {"jam": [9]}})
    assert outcome["reason"] == "unknown_entity"
    section(t, "G1", "gate")
    outcome = t.send({"type": "repair", "gate_id": "G1", "dice": {"jam": [9]}})
    assert outcome["reason"] == "dice_value_out_of_range"  # checked before the phase (orders)


@rule("EP-GEN-03")
def test_given_a_supplied_slot_the_action_does_not_draw_then_it_is_listed_in_unused_dice(
    rules_table: TableFactory,
) -> None:
    outcome = undefended_climb_in_close_combat(rules_table).send(
        assault_s1(attacker=[3, 4], defender=[1, 1], jam=5)
    )
    assert outcome["status"] == "applied"
    assert outcome["result"]["unused_dice"] == {"defender": [1, 1], "jam": [5]}
    assert outcome["result"]["dice_used"] == {"attacker": [3, 4]}
    assert [r["slot"] for r in outcome["rolls"]] == ["attacker", "attacker"]


@rule("EP-GEN-03")
def test_given_a_bare_integer_for_a_one_die_slot_then_it_counts_as_a_list(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "G1", "gate")
    t.send({"type": "give_order", "gate_id": "G1", "order": "charge"})
    advance(t)
    result = applied(t, {"type": "operate_gate", "gate_id": "G1", "action": "open", "dice": {"jam": 3}})
    assert (result["jam"], result["dice_used"]) == (3, {"jam": [3]})


@rule("EP-GEN-03")
def test_given_supplied_and_stream_slots_then_only_unsupplied_slots_consume_the_stream(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic")
    section(t, "W1")
    stand(t, "goff", side="defender", caf=2, location=on("W1"))
    stand(t, "csm", caf=3, location=at_foot("W1"))
    order(t, "csm", "charge")
    advance(t)
    climb(t, "csm", "W1")
    advance_to(t, "close_combat")
    outcome = t.send({"type": "assault", "stand_id": "csm", "section_id": "W1", "dice": {"attacker": [1, 1]}})
    assert [(r["slot"], r["source"]) for r in outcome["rolls"]] == [
        ("attacker", "client"),
        ("attacker", "client"),
        ("defender", "stream"),
        ("defender", "stream"),
    ]


@rule("EP-TIME-01")
def test_every_applied_result_tells_turn_phase_and_dice(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    result = section(t, "W1")
    assert (result["turn"], result["phase"], result["dice_used"], result["unused_dice"]) == (
        1,
        "orders",
        {},
        {},
    )
    conclude = t.send({"type": "conclude"})
    assert conclude["status"] == "applied"
    assert (conclude["result"]["turn"], conclude["result"]["phase"]) == (1, "orders")
    assert (conclude["result"]["dice_used"], conclude["result"]["unused_dice"]) == ({}, {})
    assert t.send({"type": "advance_phase"})["reason"] == "battle_concluded"


@rule("EP-GEN-01", "EP-TIME-02")
def test_the_state_round_trips_through_its_json_encoding(rules_table: TableFactory) -> None:
    t = rules_table("epic", {"tie_rule": "both_destroyed", "default_section_capacity": 2})
    section(t, "W1")
    section(t, "G1", "gate", adjacent=["W1"], door="open")
    stand(t, "lev", "transport_war_engine", caf=6, capacity=2, location=at_foot("W1"))
    stand(t, "tac", caf=3, save=4, location=embarked("lev"))
    stand(t, "goff", side="defender", caf=2, location=on("W1"))
    order(t, "lev", "charge")
    t.send({"type": "give_order", "gate_id": "G1", "order": "charge"})
    advance(t)
    climb(t, "tac", "W1")
    encoded = t.state()
    decoded = RULESET.decode_state(json.loads(canonical_json(encoded)))
    assert RULESET.encode_state(decoded) == encoded
    assert decoded == RULESET.decode_state(encoded)
    assert encoded["stands"][1]["pending_climb"] == {"section_id": "W1", "approach": "tower"}
    assert encoded["stands"][1]["location"] == embarked("lev")


def test_the_ruleset_record_names_every_command_slot_and_option() -> None:
    ruleset = get_ruleset("epic")
    assert (ruleset.name, ruleset.rules_version) == ("epic", "epic-2")
    assert set(ruleset.commands) == {
        "advance_phase",
        "add_fortification",
        "add_stand",
        "give_order",
        "move",
        "embark",
        "disembark",
        "climb",
        "assault",
        "fire",
        "barrage",
        "operate_gate",
        "repair",
    }
    assert {name: slot.faces for name, slot in ruleset.slots.items()} == {
        s: 6 for s in ("attacker", "defender", "save", "to_hit", "unit_save", "jam", "repair")
    }
    assert dict(ruleset.default_options) == {
        "tie_rule": "none_destroyed",
        "half_va_rounding": "ceil",
        "gate_needs_two_failures": False,
        "occupants_destroyed_with_section": False,
        "natural_six_always_hits": False,
        "ta_bonus_only_when_closed": False,
        "default_section_capacity": 1,
    }
    initial = ruleset.encode_state(ruleset.initial_state(ruleset.default_options))
    assert (initial["turn"], initial["phase"], initial["sections"], initial["stands"]) == (
        1,
        "orders",
        [],
        [],
    )


def test_describe_is_json_and_lists_fields_slots_options_and_reasons() -> None:
    described = describe(RULESET)
    assert json.loads(json.dumps(described)) == described
    climb = described["commands"]["climb"]
    assert climb["body"]["required"] == ["type", "stand_id", "section_id"]
    assert climb["phases"] == ["movement"]
    stand_fields = described["commands"]["add_stand"]["body"]["properties"]
    assert stand_fields["save"] == {
        "anyOf": [{"type": "integer", "minimum": 2, "maximum": 6}, {"type": "null"}],
        "default": None,
    }
    assert described["dice_slots"]["attacker"] == {
        "die": "d6",
        "per_roll": 2,
        "doc": "the attacker's 2D6 in an assault",
        "drawn_by": ["assault"],
    }
    assert described["options"]["half_va_rounding"]["schema"]["enum"] == ["ceil", "floor"]
    assert "one_stand_at_a_time" in described["reason_codes"]
