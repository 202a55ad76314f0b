"""`fire`: EP-SHOOT-01..06, EP-SAVE-01..04, EP-FORT-07, EP-GEN-07."""

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
    fire_at_section,
    fire_at_stand,
    gate_order,
    on,
    order,
    rejected,
    section,
    stand,
    weapon,
)

rule = pytest.mark.rule
BOLTER = weapon("bolter", 4)


def range_(rules_table: TableFactory, shooter_order: str = "first_fire", **options: Any) -> Table:
    """Sections W1, G1 (Advance), Wx (destroyed); the attacker's `gun` and the defender's `dgun`."""
    t = rules_table("epic", options)
    section(t, "W1")
    section(t, "G1", "gate")
    section(t, "Wx", status="destroyed")
    stand(t, "gun", "vehicle")
    stand(t, "dgun", side="defender", location=INSIDE)
    order(t, "gun", shooter_order)
    order(t, "dgun", shooter_order)
    gate_order(t, "G1", "advance")
    return t


@rule("EP-SHOOT-01")
def test_first_fire_stands_shoot_in_first_fire_and_advance_stands_in_advance_fire(
    rules_table: TableFactory,
) -> None:
    t = range_(rules_table)
    stand(t, "adv")
    stand(t, "chg")
    stand(t, "none")
    order(t, "adv", "advance")
    order(t, "chg", "charge")
    advance_to(t, "first_fire")
    assert rejected(t, fire_at_section("adv", "W1", BOLTER)) == "wrong_phase"
    assert rejected(t, fire_at_section("chg", "W1", BOLTER)) == "order_cannot_shoot"
    assert rejected(t, fire_at_section("none", "W1", BOLTER)) == "order_cannot_shoot"
    assert applied(t, fire_at_section("gun", "W1", BOLTER, to_hit=[1]))["to_hit"]["hit"] is False
    advance_to(t, "advance_fire")
    assert rejected(t, fire_at_section("gun", "W1", weapon("other"))) == "wrong_phase"
    assert applied(t, fire_at_section("adv", "W1", BOLTER, to_hit=[1]))["to_hit"]["hit"] is False


@rule("EP-SHOOT-01")
def test_each_weapon_fires_once_per_turn_but_a_stand_may_carry_several(rules_table: TableFactory) -> None:
    t = range_(rules_table)
    advance_to(t, "first_fire")
    applied(t, fire_at_section("gun", "W1", BOLTER, to_hit=[1]))
    assert rejected(t, fire_at_section("gun", "G1", BOLTER)) == "weapon_already_fired"
    applied(t, fire_at_section("gun", "W1", weapon("lascannon"), to_hit=[1]))
    assert t.state()["stands"][0]["fired_weapons"] == ["bolter", "lascannon"]


@rule("EP-SHOOT-01")
def test_embarked_stands_do_not_shoot(rules_table: TableFactory) -> None:
    t = range_(rules_table)
    stand(t, "lev", "transport_war_engine", capacity=1)
    stand(t, "p", location=embarked("lev"))
    order(t, "lev", "first_fire")
    advance_to(t, "first_fire")
    assert rejected(t, fire_at_section("p", "W1", BOLTER)) == "embarked"


@rule("EP-SHOOT-02", "EP-GEN-02")
def test_only_the_attacker_shoots_at_sections(rules_table: TableFactory) -> None:
    t = range_(rules_table)
    advance_to(t, "first_fire")
    assert rejected(t, fire_at_section("dgun", "W1", BOLTER)) == "friendly_target"


@rule("EP-SHOOT-02", "EP-FORT-07")
def test_a_destroyed_section_cannot_be_shot(rules_table: TableFactory) -> None:
    t = range_(rules_table)
    advance_to(t, "first_fire")
    assert rejected(t, fire_at_section("gun", "Wx", BOLTER)) == "section_destroyed"


@rule("EP-SHOOT-02", "EP-SAVE-02", "EP-SAVE-01")
def test_a_hit_section_always_saves_and_a_miss_leaves_its_counter(rules_table: TableFactory) -> None:
    t = range_(rules_table)
    section(t, "W9", consecutive_failed_saves=1)
    advance_to(t, "first_fire")
    miss = applied(t, fire_at_section("gun", "W9", weapon("pistol", 6), to_hit=[5], save=[1, 1]))
    assert miss == {
        "to_hit": {"die": 5, "needed": 6, "malus": 0, "hit": False},
        "save": None,
        "consecutive_failed_saves": 1,
        "section_destroyed": False,
        "unit_save": None,
        "stand_destroyed": None,
        "destroyed_stands": [],
        "turn": 1,
        "phase": "first_fire",
        "dice_used": {"to_hit": [5]},
        "unused_dice": {"save": [1, 1]},
    }
    hit = applied(t, fire_at_section("gun", "W9", weapon("autogun", 2), to_hit=[2], save=[1, 2]))
    assert hit["save"] == {
        "slot": "save",
        "dice": [1, 2],
        "modifiers": [],
        "total": 3,
        "target": 3,
        "success": True,
    }
    assert (hit["consecutive_failed_saves"], hit["section_destroyed"], hit["stand_destroyed"]) == (
        0,
        False,
        None,
    )


@rule("EP-SAVE-03")
def test_the_failure_counter_carries_over_between_turns(rules_table: TableFactory) -> None:
    t = range_(rules_table)
    advance_to(t, "first_fire")
    assert (
        applied(t, fire_at_section("gun", "W1", BOLTER, to_hit=[6], save=[1, 1]))["consecutive_failed_saves"]
        == 1
    )
    advance_to(t, "orders")
    order(t, "gun", "advance")
    gate_order(t, "G1", "advance")
    advance_to(t, "advance_fire")
    result = applied(t, fire_at_section("gun", "W1", BOLTER, to_hit=[6], save=[1, 1]))
    assert (result["consecutive_failed_saves"], result["section_destroyed"]) == (2, True)


@rule("EP-SAVE-04")
def test_under_the_option_a_gate_needs_two_failures_and_counts_them(rules_table: TableFactory) -> None:
    t = range_(rules_table, gate_needs_two_failures=True)
    stand(t, "gun2", "vehicle")
    order(t, "gun2", "first_fire")
    advance_to(t, "first_fire")
    first = applied(t, fire_at_section("gun", "G1", weapon("las", 2, -3), to_hit=[2], save=[1, 1]))
    assert (first["consecutive_failed_saves"], first["section_destroyed"]) == (1, False)
    second = applied(t, fire_at_section("gun2", "G1", weapon("las", 2, -3), to_hit=[2], save=[1, 1]))
    assert (second["consecutive_failed_saves"], second["section_destroyed"]) == (2, True)


@rule("EP-SAVE-01", "EP-GATE-02", "EP-FORT-03")
def test_the_first_fire_bonus_on_saves_applies_to_an_open_gate_unless_the_option_says_closed_only(
    rules_table: TableFactory,
) -> None:
    for option, modifiers in ((False, [{"label": "tir_appuye", "value": 2}]), (True, [])):
        t = rules_table("epic", {"ta_bonus_only_when_closed": option})
        section(t, "G1", "gate", door="open")
        stand(t, "gun", "vehicle")
        order(t, "gun", "first_fire")
        gate_order(t, "G1", "first_fire")
        advance_to(t, "first_fire")
        result = applied(t, fire_at_section("gun", "G1", BOLTER, to_hit=[4], save=[1, 1]))
        assert result["save"]["modifiers"] == modifiers


@rule("EP-FORT-07", "EP-SAVE-03")
def test_occupants_of_a_section_destroyed_by_fire_are_destroyed_only_under_the_option(
    rules_table: TableFactory,
) -> None:
    for option, lost in ((False, []), (True, ["goff"])):
        t = rules_table("epic", {"occupants_destroyed_with_section": option})
        section(t, "W1", consecutive_failed_saves=1)
        stand(t, "goff", side="defender", location=on("W1"))
        stand(t, "gun", "vehicle")
        order(t, "gun", "first_fire")
        advance_to(t, "first_fire")
        result = applied(t, fire_at_section("gun", "W1", BOLTER, to_hit=[4], save=[1, 1]))
        assert (result["section_destroyed"], result["destroyed_stands"]) == (True, lost)


@rule("EP-FORT-07", "EP-SHOOT-05")
def test_a_stand_left_in_a_breach_is_shot_without_malus(rules_table: TableFactory) -> None:
    t = range_(rules_table)
    section(t, "W2", consecutive_failed_saves=1)
    stand(t, "goff", side="defender", location=on("W2"))
    advance_to(t, "first_fire")
    assert (
        applied(t, fire_at_section("gun", "W2", BOLTER, to_hit=[4], save=[1, 1]))["section_destroyed"] is True
    )
    shot = applied(t, fire_at_stand("gun", "goff", weapon("las", 3), to_hit=[3]))
    assert shot["to_hit"] == {"die": 3, "needed": 3, "malus": 0, "hit": True}


@rule("EP-SHOOT-03", "EP-SHOOT-04")
def test_a_stand_on_a_blockhouse_is_harder_to_hit_and_a_stand_with_a_save_may_survive(
    rules_table: TableFactory,
) -> None:
    t = range_(rules_table)
    section(t, "B1", "blockhouse")
    stand(t, "gs", side="defender", save=4, location=on("B1"))
    advance_to(t, "first_fire")
    result = applied(t, fire_at_stand("gun", "gs", weapon("las", 3), to_hit=[5], unit_save=[4]))
    assert result["to_hit"] == {"die": 5, "needed": 5, "malus": 2, "hit": True}
    assert result["unit_save"]["success"] is True
    assert (result["stand_destroyed"], result["destroyed_stands"], result["save"]) == (False, [], None)
    assert result["consecutive_failed_saves"] is None
    assert result["section_destroyed"] is None


@rule("EP-SHOOT-04")
def test_a_hit_stand_whose_save_fails_is_destroyed(rules_table: TableFactory) -> None:
    t = range_(rules_table)
    stand(t, "gs", side="defender", save=4, location=INSIDE)
    advance_to(t, "first_fire")
    result = applied(t, fire_at_stand("gun", "gs", weapon("las", 3, -1), to_hit=[3], unit_save=[4]))
    assert (result["unit_save"]["total"], result["unit_save"]["success"], result["stand_destroyed"]) == (
        3,
        False,
        True,
    )
    assert t.state()["stands"][2]["destroyed"] is True


@rule("EP-SHOOT-05", "EP-VEHICLE-02")
@pytest.mark.parametrize("where", [INSIDE, at_foot("W1"), {"kind": "outside"}])
def test_stands_not_on_a_fortification_are_shot_without_malus(
    rules_table: TableFactory, where: dict[str, Any]
) -> None:
    t = range_(rules_table)
    stand(t, "target", side="defender", location=where)
    advance_to(t, "first_fire")
    result = applied(t, fire_at_stand("gun", "target", weapon("las", 4), to_hit=[4]))
    assert (result["to_hit"]["needed"], result["to_hit"]["malus"], result["stand_destroyed"]) == (4, 0, True)


@rule("EP-SHOOT-06", "EP-GEN-07")
def test_unsupported_friendly_and_destroyed_targets_are_refused_in_the_listed_order(
    rules_table: TableFactory,
) -> None:
    t = range_(rules_table)
    stand(t, "titan", "war_engine", side="defender")
    stand(t, "lev", "transport_war_engine", side="defender", capacity=1)
    stand(t, "p", side="defender", location=embarked("lev"))
    stand(t, "mate")
    stand(t, "victim", side="defender")
    advance_to(t, "first_fire")
    applied(t, fire_at_stand("gun", "victim", weapon("a", 2), to_hit=[6]))
    reasons = [
        rejected(t, fire_at_stand("gun", target, BOLTER))
        for target in ("titan", "lev", "p", "mate", "victim")
    ]
    assert reasons == [
        "unsupported_target",
        "unsupported_target",
        "unsupported_target",
        "friendly_target",
        "target_destroyed",
    ]


@rule("EP-SHOOT-03")
def test_cannot_hit_is_checked_last_and_fires_no_weapon(rules_table: TableFactory) -> None:
    t = range_(rules_table)
    stand(t, "gw", side="defender", location=on("W1"))
    advance_to(t, "first_fire")
    assert rejected(t, fire_at_stand("gun", "gw", weapon("las", 4), to_hit=[6])) == "cannot_hit"
    assert t.state()["stands"][0]["fired_weapons"] == []
