"""Spec §2: what every command checks first, in order: invalid_field, unknown_entity, duplicate_id, dice
faces, phase, a living actor (EP-TIME-06, EP-GEN-07)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.epic.given import (
    INSIDE,
    advance,
    advance_to,
    applied,
    at_foot,
    fire_at_section,
    gate_order,
    on,
    order,
    rejected,
    section,
    stand,
    weapon,
)

rule = pytest.mark.rule


@pytest.mark.parametrize(
    "command",
    [
        {"type": "add_fortification", "id": "X", "kind": "wall", "door": "open"},
        {"type": "add_fortification", "id": "X", "kind": "tower", "jammed": False},
        {"type": "add_fortification", "id": "X", "kind": "wall", "adjacent": ["X"]},
        {
            "type": "add_stand",
            "id": "X",
            "stand_type": "infantry",
            "side": "attacker",
            "caf": 1,
            "speed_cm": 10,
            "capacity": 1,
            "location": {"kind": "outside"},
        },
        {"type": "give_order", "stand_id": "a", "gate_id": "G1", "order": "charge"},
        {"type": "give_order", "order": "charge"},
        {"type": "move", "stand_id": "a", "to": {"kind": "embarked", "transport_id": "a"}, "distance_cm": 1},
        {"type": "fire", "stand_id": "a", "weapon": {"id": "w", "to_hit": 4}, "target": {}},
        {
            "type": "fire",
            "stand_id": "a",
            "weapon": {"id": "w", "to_hit": 4},
            "target": {"stand_id": "a", "section_id": "G1"},
        },
        {"type": "barrage", "stand_ids": ["a"], "weapon_id": "w", "barrage_points": 1, "kind": "direct"},
        {
            "type": "barrage",
            "stand_ids": ["a", "a"],
            "weapon_id": "w",
            "barrage_points": 1,
            "kind": "direct",
            "target_section_ids": ["G1"],
        },
        {"type": "climb", "stand_id": "a"},
        {"type": "move", "stand_id": "a", "to": INSIDE, "distance_cm": -1},
        {
            "type": "add_stand",
            "id": "X",
            "stand_type": "titan",
            "side": "attacker",
            "caf": 1,
            "speed_cm": 10,
            "location": {"kind": "outside"},
        },
        {"type": "add_fortification", "id": "X", "kind": "wall", "adjacent": ["G1", "G1"]},
        {
            "type": "add_stand",
            "id": "X",
            "stand_type": "transport_war_engine",
            "side": "attacker",
            "caf": 1,
            "speed_cm": 10,
            "capacity": 2,
            "location": {"kind": "embarked", "transport_id": "X"},
        },
        {"type": "embark", "stand_id": "a", "transport_id": "a"},
        {
            "type": "barrage",
            "stand_ids": ["a"],
            "weapon_id": "w",
            "barrage_points": 1,
            "kind": "direct",
            "target_stand_ids": ["a", "a"],
        },
        {
            "type": "barrage",
            "stand_ids": ["a"],
            "weapon_id": "w",
            "barrage_points": 1,
            "kind": "direct",
            "target_section_ids": ["G1", "G1"],
        },
    ],
    ids=[
        "door on a wall",
        "jammed on a tower",
        "a section adjacent to itself",
        "capacity on a non-transport",
        "both stand_id and gate_id",
        "neither stand_id nor gate_id",
        "a move into a transport",
        "a fire target with no id",
        "a fire target with two ids",
        "a barrage with no target",
        "a barrage with a repeated firer",
        "a missing required field",
        "a negative distance",
        "an unknown stand type",
        "a repeated adjacent section",
        "a transport carried by itself",
        "a stand boarding itself",
        "a repeated barrage target stand",
        "a repeated barrage target section",
    ],
)
@rule("EP-GEN-06", "EP-FORT-02")
def test_field_errors_are_invalid_field_before_anything_else(
    rules_table: TableFactory, command: dict[str, Any]
) -> None:
    t = rules_table("epic")
    section(t, "G1", "gate")
    stand(t, "a")
    assert rejected(t, {**command, "dice": {"to_hit": [9]}}) == "invalid_field"


@pytest.mark.parametrize(
    "command",
    [
        {"type": "climb", "stand_id": "ghost", "section_id": "W1"},
        {"type": "climb", "stand_id": "a", "section_id": "ghost"},
        {"type": "climb", "stand_id": "W1", "section_id": "W1"},
        {"type": "climb", "stand_id": "a", "section_id": "a"},
        {"type": "move", "stand_id": "a", "to": INSIDE, "distance_cm": 1, "via": "ghost"},
        {"type": "move", "stand_id": "a", "to": {"kind": "at_foot", "section_id": "ghost"}, "distance_cm": 1},
        {"type": "assault", "stand_id": "a", "section_id": "W1", "defender_id": "ghost"},
        {"type": "operate_gate", "gate_id": "ghost", "action": "open"},
        {"type": "add_fortification", "id": "W2", "kind": "wall", "adjacent": ["ghost"]},
        {
            "type": "add_stand",
            "id": "b",
            "stand_type": "infantry",
            "side": "attacker",
            "caf": 1,
            "speed_cm": 1,
            "location": {"kind": "embarked", "transport_id": "ghost"},
        },
        {
            "type": "barrage",
            "stand_ids": ["a"],
            "weapon_id": "w",
            "barrage_points": 1,
            "kind": "direct",
            "target_stand_ids": ["ghost"],
        },
    ],
    ids=[
        "an unknown stand",
        "an unknown section",
        "a section id where a stand is expected",
        "a stand id where a section is expected",
        "an unknown via",
        "an unknown destination section",
        "an unknown defender",
        "an unknown gate",
        "an unknown adjacent section",
        "an unknown transport",
        "an unknown barrage target",
    ],
)
@rule("EP-GEN-07")
def test_ids_that_name_nothing_of_the_right_kind_are_unknown_entity_before_the_phase(
    rules_table: TableFactory, command: dict[str, Any]
) -> None:
    t = rules_table("epic")
    section(t, "W1")
    stand(t, "a")
    assert rejected(t, {**command, "dice": {"to_hit": [9]}}) == "unknown_entity"


@rule("EP-FORT-02")
def test_stands_and_sections_share_one_id_namespace(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "W1")
    stand(t, "a")
    command = {
        "type": "add_stand",
        "id": "W1",
        "stand_type": "infantry",
        "side": "attacker",
        "caf": 1,
        "speed_cm": 10,
        "location": {"kind": "outside"},
    }
    refused = t.send(command)
    assert (refused["reason"], refused["detail"]) == ("duplicate_id", {"id": "W1"})  # the id already used
    refused = t.send({"type": "add_fortification", "id": "a", "kind": "tower"})
    assert (refused["reason"], refused["detail"]) == ("duplicate_id", {"id": "a"})
    assert (
        rejected(t, {"type": "add_fortification", "id": "W1", "kind": "tower", "door": "open"})
        == "invalid_field"
    )
    unknown_then_duplicate = {"type": "add_fortification", "id": "W1", "kind": "tower", "adjacent": ["ghost"]}
    assert rejected(t, unknown_then_duplicate) == "unknown_entity"


@rule("EP-TIME-06")
@pytest.mark.parametrize(
    ("phase", "command"),
    [
        ("orders", {"type": "climb", "stand_id": "a", "section_id": "W1"}),
        ("orders", {"type": "operate_gate", "gate_id": "G1", "action": "open"}),
        ("movement", {"type": "give_order", "stand_id": "a", "order": "charge"}),
        ("movement", {"type": "assault", "stand_id": "a", "section_id": "W1"}),
        ("movement", fire_at_section("a", "W1", weapon())),
        ("close_combat", {"type": "move", "stand_id": "a", "to": INSIDE, "distance_cm": 0}),
        ("first_fire", {"type": "repair", "gate_id": "G1"}),
        ("end", {"type": "operate_gate", "gate_id": "G1", "action": "open"}),
        (
            "end",
            {
                "type": "barrage",
                "stand_ids": ["a"],
                "weapon_id": "w",
                "barrage_points": 1,
                "kind": "direct",
                "target_section_ids": ["W1"],
            },
        ),
    ],
)
def test_commands_outside_their_phases_are_wrong_phase(
    rules_table: TableFactory, phase: str, command: dict[str, Any]
) -> None:
    t = rules_table("epic")
    section(t, "W1")
    section(t, "G1", "gate")
    stand(t, "a")
    t.send({"type": "give_order", "gate_id": "G1", "order": "charge"})
    if phase != "orders":
        advance_to(t, phase)
    assert rejected(t, command) == "wrong_phase"


@rule("EP-TIME-06")
def test_setup_commands_and_advance_phase_are_accepted_in_any_phase(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    for n, phase in enumerate(["movement", "first_fire", "close_combat", "advance_fire", "end"]):
        advance_to(t, phase)
        section(t, f"W{n}")
        stand(t, f"s{n}", location=at_foot(f"W{n}"))


def csm_destroyed_assaulting(rules_table: TableFactory) -> Table:
    """A battle in its close combat phase where the attacker's stand `csm` has just lost its assault on the
    wall section W1 (dice 1+1 against 6+6) and is destroyed."""
    t = rules_table("epic")
    section(t, "W1")
    stand(t, "goff", side="defender", caf=2, location=on("W1"))
    stand(t, "csm", caf=0, location=at_foot("W1"))
    order(t, "csm", "charge")
    advance(t)
    t.send({"type": "climb", "stand_id": "csm", "section_id": "W1"})
    advance_to(t, "close_combat")
    t.send(
        {
            "type": "assault",
            "stand_id": "csm",
            "section_id": "W1",
            "dice": {"attacker": [1, 1], "defender": [6, 6]},
        }
    )
    return t


@rule("EP-GEN-07")
def test_a_destroyed_stand_cannot_act_and_that_is_checked_after_the_phase(rules_table: TableFactory) -> None:
    t = csm_destroyed_assaulting(rules_table)
    assert rejected(t, {"type": "give_order", "stand_id": "csm", "order": "charge"}) == "wrong_phase"
    advance_to(t, "orders")
    assert rejected(t, {"type": "give_order", "stand_id": "csm", "order": "charge"}) == "stand_destroyed"
    assert "csm" not in advance(t)["movement_allowances"]


@rule("EP-TIME-06")
@pytest.mark.parametrize(
    ("phase", "command", "allowed"),
    [
        ("orders", {"type": "climb", "stand_id": "a", "section_id": "W1"}, ["movement"]),
        ("movement", {"type": "give_order", "stand_id": "a", "order": "charge"}, ["orders"]),
        ("movement", fire_at_section("a", "W1", weapon()), ["first_fire", "advance_fire"]),
        ("movement", {"type": "repair", "gate_id": "G1"}, ["end"]),
    ],
)
def test_a_wrong_phase_tells_the_phase_and_the_phases_the_command_belongs_to(
    rules_table: TableFactory, phase: str, command: dict[str, Any], allowed: list[str]
) -> None:
    """DESIGN §5: a rejection's `detail` names the phase behind it; the allowed phases in the spec's order."""
    t = rules_table("epic")
    section(t, "W1")
    section(t, "G1", "gate")
    stand(t, "a")
    gate_order(t, "G1", "charge")
    if phase != "orders":
        advance_to(t, phase)
    outcome = t.send(command)
    assert (outcome["status"], outcome["reason"]) == ("rejected", "wrong_phase")
    assert outcome["detail"] == {"phase": phase, "allowed": allowed}


@rule("EP-GEN-07", "EP-BARRAGE-02")
def test_a_destroyed_actor_is_named_in_the_detail_and_each_firing_stand_is_checked(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic")
    section(t, "W1")
    for s in ("b1", "b2", "b3"):
        stand(t, s, "vehicle")
    stand(t, "dg", side="defender", location=INSIDE)
    stand(t, "boy", side="defender", location=INSIDE)
    for s in ("b1", "b2", "b3", "dg"):
        order(t, s, "first_fire")
    advance_to(t, "first_fire")
    fire = {"type": "fire", "weapon": {"id": "las", "to_hit": 2}, "dice": {"to_hit": [6]}}
    applied(t, {**fire, "stand_id": "dg", "target": {"stand_id": "b2"}})
    barrage = {
        "type": "barrage",
        "stand_ids": ["b1", "b2", "b3"],
        "weapon_id": "w",
        "barrage_points": 1,
        "kind": "direct",
        "target_stand_ids": ["boy"],
    }
    outcome = t.send(barrage)
    assert (outcome["reason"], outcome["detail"]) == ("stand_destroyed", {"id": "b2"})
    alone = t.send({**fire, "stand_id": "b2", "target": {"stand_id": "boy"}})
    assert (alone["reason"], alone["detail"]) == ("stand_destroyed", {"id": "b2"})


@rule("EP-GEN-06", "EP-FORT-02")
def test_the_same_fields_on_the_kind_they_belong_to_are_accepted(rules_table: TableFactory) -> None:
    """The counterpart of the `invalid_field` cases: gate fields on a gate, capacity on a transport, distinct
    targets in either list."""
    t = rules_table("epic")
    gate = section(t, "G1", "gate", door="open", jammed=True, adjacent=[])
    assert (gate["section"]["door"], gate["section"]["jammed"]) == ("open", True)
    assert section(t, "W1", adjacent=["G1"])["section"]["adjacent"] == ["G1"]
    assert stand(t, "T", "transport_war_engine", capacity=2)["stand"]["capacity"] == 2
    stand(t, "a", location=at_foot("W1"))
    stand(t, "d", side="defender", location=INSIDE)
    stand(t, "e", side="defender", location=INSIDE)
    order(t, "a", "first_fire")
    gate_order(t, "G1", "charge")
    advance_to(t, "first_fire")
    at_section = {"type": "barrage", "stand_ids": ["a"], "barrage_points": 1, "kind": "direct"}
    assert rejected(t, {**at_section, "weapon_id": "w1", "target_stand_ids": ["d", "e", "d"]}) == (
        "invalid_field"
    )
    applied(t, {**at_section, "weapon_id": "w1", "target_stand_ids": ["d", "e"], "dice": {"to_hit": [1, 1]}})
    applied(t, {**at_section, "weapon_id": "w2", "target_section_ids": ["W1"], "dice": {"to_hit": [1]}})


@rule("EP-GEN-07", "EP-ORDER-01")
def test_a_gate_id_naming_a_destroyed_stand_is_not_a_gate_the_stand_check_is_for_stands(
    rules_table: TableFactory,
) -> None:
    """`gate_id` accepts any existing id and is judged by `not_a_gate` (§2, version 1.1); only an acting
    stand is refused `stand_destroyed`."""
    t = csm_destroyed_assaulting(rules_table)
    advance_to(t, "orders")
    assert rejected(t, {"type": "give_order", "gate_id": "csm", "order": "charge"}) == "not_a_gate"
    assert rejected(t, {"type": "give_order", "stand_id": "csm", "order": "charge"}) == "stand_destroyed"
