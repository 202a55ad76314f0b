"""`barrage`: EP-BARRAGE-01..04, EP-SAVE-05, and the draw order of its dice (spec §4)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.epic.given import (
    INSIDE,
    advance_to,
    applied,
    at_foot,
    embarked,
    on,
    order,
    rejected,
    section,
    stand,
)

rule = pytest.mark.rule


def barrage(stand_ids: list[str], **fields: Any) -> dict[str, Any]:
    command = {
        "type": "barrage",
        "stand_ids": stand_ids,
        "weapon_id": "battery",
        "barrage_points": 5,
        "kind": "direct",
    }
    return {**command, **fields}


def battery(rules_table: TableFactory, given: str = "first_fire", **options: Any) -> Table:
    """Attacker batteries b1, b2 on `given` orders; defenders: goff on W1, boy (save 5) and boy2 inside."""
    t = rules_table("epic", options)
    section(t, "W1")
    section(t, "W2")
    stand(t, "goff", side="defender", location=on("W1"))
    stand(t, "boy", side="defender", save=5, location=INSIDE)
    stand(t, "boy2", side="defender", location=INSIDE)
    stand(t, "b1", "vehicle")
    stand(t, "b2", "vehicle")
    order(t, "b1", given)
    order(t, "b2", given)
    return t


@rule("EP-BARRAGE-01")
@pytest.mark.parametrize(
    ("points", "needed"), [(1, 6), (2, 6), (3, 5), (4, 5), (5, 4), (6, 4), (7, 3), (8, 3), (9, 2), (20, 2)]
)
def test_barrage_points_give_the_number_needed(rules_table: TableFactory, points: int, needed: int) -> None:
    t = battery(rules_table)
    advance_to(t, "first_fire")
    result = applied(
        t, barrage(["b1"], barrage_points=points, target_stand_ids=["boy2"], dice={"to_hit": [1]})
    )
    assert (result["needed_base"], result["stands"][0]["needed"]) == (needed, needed)


@rule("EP-BARRAGE-01", "EP-SHOOT-03")
def test_under_natural_six_a_stand_on_a_wall_is_hit_on_a_six(rules_table: TableFactory) -> None:
    t = battery(rules_table, natural_six_always_hits=True)
    advance_to(t, "first_fire")
    result = applied(t, barrage(["b1"], barrage_points=1, target_stand_ids=["goff"], dice={"to_hit": [6]}))
    assert result["stands"] == [
        {"stand_id": "goff", "needed": 6, "die": 6, "hit": True, "unit_save": None, "destroyed": True}
    ]


@rule("EP-BARRAGE-01", "EP-SAVE-05", "EP-BARRAGE-04")
def test_dice_are_drawn_to_hit_first_then_unit_saves_then_section_saves_each_in_listed_order(
    rules_table: TableFactory,
) -> None:
    t = battery(rules_table)
    stand(t, "boy3", side="defender", save=6, location=INSIDE)
    advance_to(t, "first_fire")
    command = barrage(
        ["b1", "b2"],
        save_modifier=-1,
        target_stand_ids=["boy3", "boy2", "boy"],
        target_section_ids=["W2", "W1"],
        dice={"to_hit": [4, 3, 6], "unit_save": [6, 6], "save": [2, 2, 1, 1]},
    )
    outcome = t.send(command)
    assert [(r["slot"], r["value"]) for r in outcome["rolls"]] == [
        ("to_hit", 4),
        ("to_hit", 3),
        ("to_hit", 6),
        ("unit_save", 6),
        ("unit_save", 6),
        ("save", 2),
        ("save", 2),
        ("save", 1),
        ("save", 1),
    ]
    result = outcome["result"]
    assert [(s["stand_id"], s["hit"], s["destroyed"]) for s in result["stands"]] == [
        ("boy3", True, True),
        ("boy2", False, False),
        ("boy", True, False),
    ]
    assert result["stands"][0]["unit_save"]["modifiers"] == [{"label": "save_modifier", "value": -1}]
    assert [
        (s["section_id"], s["save"]["total"], s["consecutive_failed_saves"]) for s in result["sections"]
    ] == [
        ("W2", 3, 0),
        ("W1", 1, 1),
    ]
    assert result["destroyed_stands"] == ["boy3"]


@rule("EP-BARRAGE-02")
def test_firing_stands_must_share_an_order_that_fires_in_this_segment(rules_table: TableFactory) -> None:
    t = battery(rules_table)
    stand(t, "b3", "vehicle")
    stand(t, "b4", "vehicle")
    stand(t, "b5", "vehicle")
    order(t, "b3", "advance")
    order(t, "b4", "charge")
    advance_to(t, "first_fire")
    target = {"target_stand_ids": ["boy2"]}
    assert rejected(t, barrage(["b1", "b3"], **target)) == "mixed_orders"
    assert rejected(t, barrage(["b4"], **target)) == "order_cannot_shoot"
    assert rejected(t, barrage(["b5"], **target)) == "order_cannot_shoot"
    assert rejected(t, barrage(["b4"], kind="indirect", **target)) == "order_cannot_shoot"  # before the kind
    assert rejected(t, barrage(["b3"], **target)) == "wrong_phase"
    assert rejected(t, barrage(["b3"], kind="indirect", **target)) == "indirect_needs_first_fire"
    advance_to(t, "advance_fire")
    assert rejected(t, barrage(["b1"], kind="indirect", target_section_ids=["W1"])) == "wrong_phase"
    assert applied(t, barrage(["b3"], dice={"to_hit": [1]}, **target))["stands"][0]["hit"] is False


@rule("EP-BARRAGE-02")
def test_each_firing_stand_uses_its_weapon_once_per_turn(rules_table: TableFactory) -> None:
    t = battery(rules_table)
    advance_to(t, "first_fire")
    applied(t, barrage(["b1"], target_stand_ids=["boy2"], dice={"to_hit": [1]}))
    assert rejected(t, barrage(["b2", "b1"], target_stand_ids=["boy2"])) == "weapon_already_fired"
    assert (
        applied(t, barrage(["b2"], target_stand_ids=["boy2"], dice={"to_hit": [1]}))["destroyed_stands"] == []
    )


@rule("EP-BARRAGE-02", "EP-GEN-07")
def test_every_firing_stand_must_be_alive_and_not_embarked_and_targets_alive(
    rules_table: TableFactory,
) -> None:
    t = battery(rules_table)
    stand(t, "lev", "transport_war_engine", capacity=1)
    stand(t, "p", location=embarked("lev"))
    stand(t, "dg", side="defender")
    order(t, "lev", "first_fire")
    order(t, "dg", "first_fire")
    advance_to(t, "first_fire")
    assert rejected(t, barrage(["b1", "p"], target_stand_ids=["boy2"])) == "embarked"
    fire = {"type": "fire", "weapon": {"id": "las", "to_hit": 2}, "dice": {"to_hit": [6]}}
    applied(t, {**fire, "stand_id": "dg", "target": {"stand_id": "b2"}})
    applied(t, {**fire, "stand_id": "b1", "target": {"stand_id": "dg"}})
    assert rejected(t, barrage(["b1", "b2"], target_stand_ids=["boy2"])) == "stand_destroyed"
    assert rejected(t, barrage(["b1"], target_stand_ids=["dg"])) == "target_destroyed"


@rule("EP-BARRAGE-04", "EP-SHOOT-06")
def test_targets_are_checked_friendly_then_destroyed_then_unsupported_then_sections(
    rules_table: TableFactory,
) -> None:
    t = battery(rules_table)
    stand(t, "titan", "war_engine", side="defender")
    stand(t, "dgun", side="defender", location=INSIDE)
    order(t, "dgun", "first_fire")
    section(t, "Wx", status="destroyed")
    advance_to(t, "first_fire")
    assert rejected(t, barrage(["dgun"], target_section_ids=["W1"])) == "friendly_target"
    assert rejected(t, barrage(["b1"], target_stand_ids=["b2"])) == "friendly_target"
    assert (
        rejected(t, barrage(["b1"], target_stand_ids=["titan"], target_section_ids=["Wx"]))
        == "unsupported_target"
    )
    assert rejected(t, barrage(["b1"], target_section_ids=["Wx"])) == "section_destroyed"


@rule("EP-BARRAGE-03")
def test_an_indirect_barrage_at_stands_inside_or_on_the_walls_needs_a_friendly_spotter(
    rules_table: TableFactory,
) -> None:
    t = battery(rules_table)
    stand(t, "scout", location=at_foot("W1"))
    stand(t, "foe", side="defender", location=at_foot("W2"))
    stand(t, "lost")
    stand(t, "lev", "transport_war_engine", capacity=1)
    stand(t, "rider", location=embarked("lev"))
    advance_to(t, "first_fire")
    into = {"kind": "indirect", "target_stand_ids": ["boy2"]}
    assert rejected(t, barrage(["b1"], **into)) == "no_spotter"
    assert (
        rejected(t, barrage(["b1"], kind="indirect", target_stand_ids=["goff"])) == "no_spotter"
    )  # on a wall
    assert rejected(t, barrage(["b1"], spotter_id="foe", **into)) == "spotter_invalid"
    assert rejected(t, barrage(["b1"], spotter_id="rider", **into)) == "spotter_invalid"
    assert rejected(t, barrage(["b1"], spotter_id="W1", **into)) == "spotter_invalid"
    walls_only = applied(
        t, barrage(["b1"], kind="indirect", target_section_ids=["W1"], dice={"save": [6, 6]})
    )
    assert walls_only["sections"][0]["save"]["success"] is True
    outside = applied(t, barrage(["b2"], kind="indirect", target_stand_ids=["foe"], dice={"to_hit": [1]}))
    assert outside["stands"][0]["hit"] is False


@rule("EP-BARRAGE-03")
def test_a_spotter_is_accepted_when_friendly_alive_and_not_embarked(rules_table: TableFactory) -> None:
    t = battery(rules_table)
    stand(t, "scout", location=at_foot("W1"))
    advance_to(t, "first_fire")
    command = barrage(["b1", "b2"], kind="indirect", target_stand_ids=["goff"], spotter_id="scout", dice={})
    result = applied(t, command)
    assert result["stands"] == [
        {"stand_id": "goff", "needed": 7, "die": None, "hit": False, "unit_save": None, "destroyed": False}
    ]
    assert result["dice_used"] == {}


@rule("EP-BARRAGE-04", "EP-SAVE-05", "EP-SAVE-01", "EP-FORT-07")
def test_each_section_under_the_template_saves_once_with_the_barrage_save_modifier(
    rules_table: TableFactory,
) -> None:
    t = battery(rules_table, occupants_destroyed_with_section=True)
    section(t, "G1", "gate")
    section(t, "W3", consecutive_failed_saves=1)
    stand(t, "ork", side="defender", location=on("W3"))
    t.send({"type": "give_order", "gate_id": "G1", "order": "first_fire"})
    advance_to(t, "first_fire")
    result = applied(
        t, barrage(["b1"], save_modifier=-2, target_section_ids=["G1", "W3"], dice={"save": [2, 2, 1, 3]})
    )
    gate, wall = result["sections"]
    assert gate["save"]["modifiers"] == [
        {"label": "save_modifier", "value": -2},
        {"label": "tir_appuye", "value": 2},
    ]
    assert (gate["save"]["total"], gate["consecutive_failed_saves"], gate["destroyed"]) == (4, 0, False)
    assert (wall["save"]["total"], wall["consecutive_failed_saves"], wall["destroyed"]) == (2, 2, True)
    assert (result["stands"], result["destroyed_stands"]) == ([], ["ork"])
