"""spec/examples.md EX-EP-01..21, one test each, through `table.send` only."""

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
    assault,
    at_foot,
    climb,
    embarked,
    fire_at_section,
    fire_at_stand,
    gate_order,
    move,
    on,
    order,
    orders,
    rejected,
    section,
    stand,
    weapon,
    with_dice,
)

rule = pytest.mark.rule


def defended_east_wall(new_table: TableFactory, options: dict[str, Any] | None = None) -> Table:
    """EX-EP-01 setup and steps 1–4: csm's climb on the Goffs' wall is pending in close combat."""
    t = new_table("epic", options)
    section(t, "E1")
    stand(t, "goff", side="defender", caf=2, location=on("E1"))
    stand(t, "csm", caf=3, location=at_foot("E1"))
    assert order(t, "csm", "charge") == {
        "target": "csm",
        "order": "charge",
        "turn": 1,
        "phase": "orders",
        "dice_used": {},
        "unused_dice": {},
    }
    assert advance(t)["movement_allowances"] == {"goff": 0, "csm": 20}
    climbed = climb(t, "csm", "E1")
    assert (climbed["approach"], climbed["defended"], climbed["result"]) == ("outside", True, "pending")
    assert climbed["movement_left_cm"] == 15
    advance_to(t, "close_combat")
    return t


@pytest.mark.example("EX-EP-01")
@rule("EP-CLIMB-01", "EP-CLIMB-02", "EP-CLIMB-04", "EP-ASSAULT-01", "EP-ASSAULT-02", "EP-ASSAULT-03")
@rule("EP-FORT-01", "EP-FORT-02", "EP-FORT-04", "EP-FORT-05", "EP-HOLD-01", "EP-TIME-01", "EP-TIME-03")
@rule("EP-ORDER-02", "EP-GEN-02", "EP-GEN-03", "EP-GEN-04", "EP-GEN-05")
def test_ex_ep_01_the_attacker_wins_on_the_defended_east_wall(new_table: TableFactory) -> None:
    t = defended_east_wall(new_table)
    result = assault(t, "csm", "E1", attacker=[6, 6], defender=[1, 2])
    assert result["kind"] == "fight"
    assert result["attacker"] == {"dice": [6, 6], "modifiers": [{"label": "caf", "value": 3}], "total": 15}
    assert result["defender"] == {
        "stand_id": "goff",
        "dice": [1, 2],
        "modifiers": [{"label": "caf", "value": 2}, {"label": "fort_va", "value": 6}],
        "total": 11,
    }
    assert result["result"] == "attacker_wins"
    assert result["destroyed_stands"] == ["goff"]
    assert result["attacker_location"] == on("E1")
    assert result["dice_used"] == {"attacker": [6, 6], "defender": [1, 2]}
    # E1 is now held by the attacker: the next attacker's climb is automatic, and E1 (capacity 1) is full
    stand(t, "csm2", caf=3, location=at_foot("E1"))
    advance_to(t, "orders")
    order(t, "csm2", "charge")
    advance(t)
    assert rejected(t, {"type": "climb", "stand_id": "csm2", "section_id": "E1"}) == "section_full"


@pytest.mark.example("EX-EP-02")
@rule("EP-ASSAULT-03", "EP-GEN-04")
def test_ex_ep_02_a_tie_destroys_nobody_and_uses_up_the_climb(new_table: TableFactory) -> None:
    t = defended_east_wall(new_table)
    result = assault(t, "csm", "E1", attacker=[3, 4], defender=[1, 1])
    assert (result["attacker"]["total"], result["defender"]["total"]) == (10, 10)
    assert result["result"] == "tie"
    assert result["destroyed_stands"] == []
    assert result["attacker_location"] == at_foot("E1")
    assert rejected(t, {"type": "assault", "stand_id": "csm", "section_id": "E1"}) == "no_pending_climb"


@pytest.mark.example("EX-EP-02")
@rule("EP-ASSAULT-03", "EP-GEN-04")
def test_ex_ep_02_battle_b_a_tie_under_both_destroyed_kills_both_in_creation_order(
    new_table: TableFactory,
) -> None:
    t = defended_east_wall(new_table, {"tie_rule": "both_destroyed"})
    result = assault(t, "csm", "E1", attacker=[3, 4], defender=[1, 1])
    assert result["result"] == "tie"
    assert result["destroyed_stands"] == ["goff", "csm"]
    assert result["attacker_location"] is None
    # E1 is undefended now: a new climber from outside needs the undefended roll (pending)
    stand(t, "csm3", caf=3, location=at_foot("E1"))
    advance_to(t, "orders")
    order(t, "csm3", "charge")
    advance(t)
    later = climb(t, "csm3", "E1")
    assert (later["defended"], later["result"]) == (False, "pending")


@pytest.mark.example("EX-EP-03")
@rule("EP-ASSAULT-04", "EP-ASSAULT-03", "EP-CLIMB-02", "EP-CLIMB-06", "EP-MOVE-01", "EP-GEN-07")
def test_ex_ep_03_two_attackers_fight_the_same_defender_in_turn(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "E1")
    stand(t, "goff", side="defender", caf=2, location=on("E1"))
    stand(t, "csm1", caf=3, location=at_foot("E1"))
    stand(t, "csm2", caf=3, location=at_foot("E1"))
    orders(t, csm1="charge", csm2="charge")
    assert advance(t)["movement_allowances"] == {"goff": 0, "csm1": 20, "csm2": 20}
    assert climb(t, "csm1", "E1")["movement_left_cm"] == 15
    assert climb(t, "csm2", "E1")["movement_left_cm"] == 15
    advance_to(t, "close_combat")
    first = assault(t, "csm1", "E1", attacker=[2, 2], defender=[3, 3])
    assert (first["attacker"]["total"], first["defender"]["total"], first["result"]) == (
        7,
        14,
        "defender_wins",
    )
    assert first["destroyed_stands"] == ["csm1"]
    assert first["attacker_location"] is None
    second = assault(t, "csm2", "E1", attacker=[6, 5], defender=[1, 1])
    assert (second["attacker"]["total"], second["defender"]["total"], second["result"]) == (
        14,
        10,
        "attacker_wins",
    )
    assert second["destroyed_stands"] == ["goff"]
    assert second["attacker_location"] == on("E1")
    assert rejected(t, {"type": "assault", "stand_id": "csm1", "section_id": "E1"}) == "stand_destroyed"


def plague_tower(new_table: TableFactory) -> Table:
    """EX-EP-04 setup: a Plague Tower at the foot of W1 carrying two CSM stands."""
    t = new_table("epic")
    section(t, "W1")
    stand(t, "goff", side="defender", caf=2, location=on("W1"))
    stand(t, "plague", "transport_war_engine", caf=8, capacity=2, location=at_foot("W1"))
    stand(t, "csm1", caf=3, location=embarked("plague"))
    stand(t, "csm2", caf=3, location=embarked("plague"))
    return t


@pytest.mark.example("EX-EP-04")
@rule("EP-TOWER-02", "EP-TOWER-03", "EP-TOWER-05", "EP-ORDER-04", "EP-BEHIND-01", "EP-ASSAULT-02")
def test_ex_ep_04_a_siege_tower_cancels_the_fortification_bonus(new_table: TableFactory) -> None:
    t = plague_tower(new_table)
    order(t, "plague", "charge")
    command = {"type": "give_order", "stand_id": "csm1", "order": "charge"}
    assert rejected(t, command) == "embarked_follows_transport"
    allowances = advance(t)["movement_allowances"]
    assert (allowances["csm1"], allowances["csm2"]) == (20, 20)
    climbed = climb(t, "csm1", "W1")
    assert (climbed["approach"], climbed["defended"], climbed["result"]) == ("tower", True, "pending")
    assert climbed["movement_left_cm"] == 15
    advance_to(t, "close_combat")
    result = assault(t, "csm1", "W1", attacker=[4, 4], defender=[3, 3])
    assert result["defender"]["modifiers"] == [{"label": "caf", "value": 2}]
    assert (result["attacker"]["total"], result["defender"]["total"]) == (11, 8)
    assert result["result"] == "attacker_wins"
    assert result["destroyed_stands"] == ["goff"]
    assert result["attacker_location"] == on("W1")


@pytest.mark.example("EX-EP-05")
@rule("EP-TOWER-04", "EP-TOWER-05", "EP-ASSAULT-03")
def test_ex_ep_05_a_tie_from_the_tower_and_one_stand_at_a_time(new_table: TableFactory) -> None:
    t = plague_tower(new_table)
    order(t, "plague", "charge")
    advance(t)
    assert climb(t, "csm1", "W1")["result"] == "pending"
    assert rejected(t, {"type": "climb", "stand_id": "csm2", "section_id": "W1"}) == "one_stand_at_a_time"
    advance_to(t, "close_combat")
    result = assault(t, "csm1", "W1", attacker=[2, 3], defender=[2, 4])
    assert (result["attacker"]["total"], result["defender"]["total"], result["result"]) == (8, 8, "tie")
    assert result["destroyed_stands"] == []
    assert result["attacker_location"] == embarked("plague")


@pytest.mark.example("EX-EP-06")
@rule("EP-CLIMB-04", "EP-CLIMB-05", "EP-CLIMB-06", "EP-CLIMB-03", "EP-CLIMB-07", "EP-CLIMB-08")
@rule("EP-HOLD-01", "EP-ASSAULT-06")
def test_ex_ep_06_minotaurs_take_the_undefended_wall_and_later_climbers_follow(
    new_table: TableFactory,
) -> None:
    t = new_table("epic")
    section(t, "S1", capacity=3)
    stand(t, "mino", caf=6, location=at_foot("S1"))
    stand(t, "cult", caf=1, location=at_foot("S1"))
    stand(t, "cult2", caf=1, location=at_foot("S1"))
    orders(t, mino="charge", cult="charge")
    advance(t)
    mino = climb(t, "mino", "S1")
    assert (mino["defended"], mino["approach"], mino["result"]) == (False, "outside", "pending")
    assert climb(t, "cult", "S1")["result"] == "pending"
    advance_to(t, "close_combat")
    first = assault(t, "mino", "S1", attacker=[1, 1])
    assert (first["kind"], first["attacker"]["total"], first["target"]) == ("undefended_climb", 8, 6)
    assert first["result"] == "success"
    assert first["attacker_location"] == on("S1")
    follower = assault(t, "cult", "S1")
    assert (follower["kind"], follower["result"], follower["attacker"]) == ("automatic", "automatic", None)
    assert follower["dice_used"] == {}
    assert follower["attacker_location"] == on("S1")
    advance_to(t, "orders")
    order(t, "cult2", "advance")
    assert advance(t)["movement_allowances"]["cult2"] == 10
    later = climb(t, "cult2", "S1")
    assert (later["automatic_reason"], later["result"], later["movement_left_cm"]) == ("held", "foothold", 0)


@pytest.mark.example("EX-EP-07")
@rule("EP-GEN-04", "EP-CLIMB-05", "EP-CLIMB-02")
def test_ex_ep_07_an_undefended_climb_needs_strictly_more_than_the_va(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "S2")
    section(t, "S3")
    stand(t, "goffy", caf=2, location=at_foot("S2"))
    stand(t, "csm", caf=3, location=at_foot("S3"))
    orders(t, goffy="charge", csm="charge")
    advance(t)
    assert climb(t, "goffy", "S2")["result"] == "pending"
    assert climb(t, "csm", "S3")["result"] == "pending"
    advance_to(t, "close_combat")
    goffy = assault(t, "goffy", "S2", attacker=[2, 2])
    assert (goffy["attacker"]["total"], goffy["result"], goffy["destroyed_stands"]) == (6, "failure", [])
    assert goffy["attacker_location"] == at_foot("S2")
    csm = assault(t, "csm", "S3", attacker=[1, 2])
    assert (csm["attacker"]["total"], csm["result"]) == (6, "failure")
    advance_to(t, "orders")
    order(t, "goffy", "charge")
    advance(t)
    assert climb(t, "goffy", "S2")["result"] == "pending"
    advance_to(t, "close_combat")
    again = assault(t, "goffy", "S2", attacker=[2, 3])
    assert (again["attacker"]["total"], again["result"], again["attacker_location"]) == (
        7,
        "success",
        on("S2"),
    )


@pytest.mark.example("EX-EP-08")
@rule("EP-WARENGINE-01", "EP-FORT-07", "EP-FORT-08", "EP-GATE-07", "EP-MOVE-02", "EP-ORDER-03")
def test_ex_ep_08_a_reaver_destroys_the_gates_and_walks_through(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "G1", "gate")
    stand(t, "reaver", "war_engine", caf=12, has_cc_weapon=True, speed_cm=15, location=at_foot("G1"))
    order(t, "reaver", "charge")
    gate_order(t, "G1", "advance")
    advance_to(t, "close_combat")
    blow = assault(t, "reaver", "G1", attacker=[1, 1])
    assert (blow["kind"], blow["attacker"]["total"], blow["target"], blow["result"]) == (
        "war_engine",
        14,
        4,
        "success",
    )
    assert blow["section_destroyed"] is True
    assert blow["approach"] is None
    assert blow["dice_used"] == {"attacker": [1, 1]}
    assert rejected(t, {"type": "assault", "stand_id": "reaver", "section_id": "G1"}) == "section_destroyed"
    advance_to(t, "orders")
    order(t, "reaver", "advance")
    assert advance(t)["phase_after"] == "movement"
    walked = move(t, "reaver", INSIDE, 10, via="G1")
    assert (walked["via"], walked["movement_left_cm"]) == ("G1", 5)


@pytest.mark.example("EX-EP-09")
@rule("EP-VEHICLE-01", "EP-WARENGINE-01", "EP-WARENGINE-04", "EP-CLIMB-01", "EP-GEN-06", "EP-FORT-06")
def test_ex_ep_09_what_vehicles_and_war_engines_cannot_do(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "G1", "gate")
    section(t, "W1")
    stand(t, "reaver0", "war_engine", caf=12, has_cc_weapon=False, location=at_foot("G1"))
    stand(t, "reaver1", "war_engine", caf=12, has_cc_weapon=True)
    stand(t, "reaver2", "war_engine", caf=12, has_cc_weapon=True, location=at_foot("G1"))
    stand(t, "rhino", "vehicle", caf=1, location=at_foot("W1"))
    orders(t, reaver0="charge", reaver1="charge", reaver2="advance", rhino="charge")
    gate_order(t, "G1", "advance")
    advance(t)
    assert rejected(t, {"type": "climb", "stand_id": "rhino", "section_id": "W1"}) == "not_infantry"
    assert rejected(t, {"type": "climb", "stand_id": "reaver1", "section_id": "W1"}) == "not_infantry"
    advance_to(t, "close_combat")
    reasons = [
        rejected(t, {"type": "assault", "stand_id": attacker, "section_id": target})
        for attacker, target in [("reaver0", "G1"), ("reaver1", "G1"), ("reaver2", "G1"), ("rhino", "W1")]
    ]
    assert reasons == [
        "no_close_combat_weapon",
        "not_in_contact",
        "charge_order_required",
        "vehicle_cannot_assault",
    ]


BOLTER = weapon("bolter", 4, 0)


@pytest.mark.example("EX-EP-10")
@rule("EP-SHOOT-01", "EP-SHOOT-02", "EP-SAVE-01", "EP-SAVE-02", "EP-SAVE-03", "EP-TIME-02")
def test_ex_ep_10_a_wall_falls_after_two_consecutive_failed_saves(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "W1")
    for shooter in ("d1", "d2", "d3", "d4"):
        stand(t, shooter)
    orders(t, d1="first_fire", d2="first_fire", d3="first_fire", d4="first_fire")
    advance_to(t, "first_fire")
    first = applied(t, fire_at_section("d1", "W1", BOLTER, to_hit=[4], save=[1, 1]))
    assert first["to_hit"] == {"die": 4, "needed": 4, "malus": 0, "hit": True}
    assert first["save"] == {
        "slot": "save",
        "dice": [1, 1],
        "modifiers": [],
        "total": 2,
        "target": 3,
        "success": False,
    }
    assert (first["consecutive_failed_saves"], first["section_destroyed"]) == (1, False)
    assert rejected(t, fire_at_section("d1", "W1", BOLTER, to_hit=[4], save=[1, 1])) == "weapon_already_fired"
    miss = applied(t, fire_at_section("d2", "W1", BOLTER, to_hit=[3]))
    assert (miss["to_hit"]["hit"], miss["save"], miss["consecutive_failed_saves"]) == (False, None, 1)
    saved = applied(t, fire_at_section("d3", "W1", BOLTER, to_hit=[5], save=[1, 2]))
    assert (saved["save"]["total"], saved["save"]["success"], saved["consecutive_failed_saves"]) == (
        3,
        True,
        0,
    )
    failed = applied(t, fire_at_section("d4", "W1", BOLTER, to_hit=[6], save=[1, 1]))
    assert failed["consecutive_failed_saves"] == 1
    advance_to(t, "orders")
    order(t, "d1", "first_fire")
    advance_to(t, "first_fire")
    last = applied(t, fire_at_section("d1", "W1", BOLTER, to_hit=[4], save=[1, 1]))
    assert (last["consecutive_failed_saves"], last["section_destroyed"]) == (2, True)


LASCANNON = weapon("lascannon", 2, -2)


@pytest.mark.example("EX-EP-11")
@rule("EP-SAVE-01", "EP-SAVE-03")
def test_ex_ep_11_weapon_save_modifiers_apply_to_fortification_saves(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "S")
    section(t, "T", "tower")
    for shooter in ("a1", "a2", "a3", "a4"):
        stand(t, shooter)
        order(t, shooter, "first_fire")
    advance_to(t, "first_fire")
    shots = [("a1", "S", [2, 2]), ("a2", "S", [2, 3]), ("a3", "T", [1, 2]), ("a4", "T", [2, 2])]
    saves = [applied(t, fire_at_section(a, s, LASCANNON, to_hit=[2], save=d)) for a, s, d in shots]
    assert [(r["save"]["total"], r["save"]["success"], r["consecutive_failed_saves"]) for r in saves] == [
        (2, False, 1),
        (3, True, 0),
        (1, False, 1),
        (2, True, 0),
    ]
    assert saves[0]["save"]["modifiers"] == [{"label": "save_modifier", "value": -2}]


def gate_under_fire(new_table: TableFactory, gate_order_given: str) -> dict[str, Any]:
    t = new_table("epic")
    section(t, "G1", "gate")
    stand(t, "las", "vehicle")
    gate_order(t, "G1", gate_order_given)
    order(t, "las", "first_fire")
    advance_to(t, "first_fire")
    return applied(t, fire_at_section("las", "G1", weapon("lascannon", 5, -3), to_hit=[5], save=[1, 2]))


@pytest.mark.example("EX-EP-12")
@rule("EP-SAVE-04", "EP-SAVE-01", "EP-GATE-02", "EP-FORT-03")
def test_ex_ep_12_a_gate_falls_on_its_first_failed_save(new_table: TableFactory) -> None:
    result = gate_under_fire(new_table, "advance")
    assert (result["save"]["total"], result["save"]["target"], result["save"]["success"]) == (0, 2, False)
    assert (result["section_destroyed"], result["consecutive_failed_saves"]) == (True, 1)


@pytest.mark.example("EX-EP-12")
@rule("EP-SAVE-04", "EP-SAVE-01", "EP-GATE-02", "EP-FORT-03")
def test_ex_ep_12_battle_b_a_first_fire_gate_saves_with_its_bonus(new_table: TableFactory) -> None:
    result = gate_under_fire(new_table, "first_fire")
    assert result["save"]["modifiers"] == [
        {"label": "save_modifier", "value": -3},
        {"label": "tir_appuye", "value": 2},
    ]
    assert (result["save"]["total"], result["save"]["success"]) == (2, True)
    assert (result["section_destroyed"], result["consecutive_failed_saves"]) == (False, 0)


@pytest.mark.example("EX-EP-13")
@rule("EP-BEHIND-01", "EP-BEHIND-02", "EP-BEHIND-03", "EP-ASSAULT-02", "EP-CLIMB-07", "EP-HOLD-02")
def test_ex_ep_13_a_defender_attacked_from_behind_gets_half_the_bonus(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "W2")
    section(t, "W1", adjacent=["W2"])
    stand(t, "goff", side="defender", caf=2, location=on("W1"))
    stand(t, "csm", caf=3, location=INSIDE)
    stand(t, "csmB", caf=3, location=on("W2"))
    orders(t, csm="charge", csmB="charge")
    advance(t)
    assert (climb(t, "csm", "W1")["approach"], climb(t, "csmB", "W1")["approach"]) == ("behind", "behind")
    advance_to(t, "close_combat")
    result = assault(t, "csm", "W1", attacker=[5, 4], defender=[3, 3])
    assert result["defender"]["modifiers"] == [
        {"label": "caf", "value": 2},
        {"label": "fort_va_half", "value": 3},
    ]
    assert (result["attacker"]["total"], result["defender"]["total"], result["result"]) == (
        12,
        11,
        "attacker_wins",
    )
    assert result["attacker_location"] == on("W1")
    assert rejected(t, {"type": "assault", "stand_id": "csmB", "section_id": "W1"}) == "section_full"


def operate(gate_id: str, action: str, **dice: Any) -> dict[str, Any]:
    return with_dice({"type": "operate_gate", "gate_id": gate_id, "action": action}, dice)


@pytest.mark.example("EX-EP-14")
@rule("EP-GATE-03", "EP-GATE-01", "EP-TIME-06")
def test_ex_ep_14_an_advance_gate_operates_once_per_turn(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "G1", "gate")
    gate_order(t, "G1", "advance")
    advance(t)
    opened = applied(t, operate("G1", "open"))
    assert (opened["performed"], opened["door"], opened["jam"], opened["dice_used"]) == (
        True,
        "open",
        None,
        {},
    )
    assert rejected(t, operate("G1", "close")) == "already_operated_this_turn"
    advance(t)
    assert rejected(t, operate("G1", "close")) == "wrong_phase"
    advance_to(t, "orders")
    gate_order(t, "G1", "advance")
    advance(t)
    closed = applied(t, operate("G1", "close"))
    assert (closed["performed"], closed["door"]) == (True, "closed")


@pytest.mark.example("EX-EP-15")
@rule("EP-GATE-04", "EP-GATE-05", "EP-GATE-06", "EP-ORDER-03")
def test_ex_ep_15_a_charge_gate_jams_on_opening_and_is_repaired_later(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "G1", "gate")
    gate_order(t, "G1", "charge")
    advance(t)
    jammed = applied(t, operate("G1", "open", jam=[6]))
    assert (jammed["jam"], jammed["performed"], jammed["jammed"], jammed["door"]) == (
        6,
        False,
        True,
        "closed",
    )
    assert rejected(t, operate("G1", "open")) == "gate_jammed"
    leaving = advance_to(t, "end")
    assert leaving["auto_closed_gates"] == []
    assert leaving["dice_used"] == {}
    first = applied(t, {"type": "repair", "gate_id": "G1", "dice": {"repair": [4]}})
    assert (first["repair"], first["repaired"], first["jammed"]) == (4, False, True)
    assert rejected(t, {"type": "repair", "gate_id": "G1"}) == "already_repaired_this_turn"
    advance(t)
    assert rejected(t, {"type": "advance_phase"}) == "gate_without_order"
    gate_order(t, "G1", "first_fire")
    advance_to(t, "end")
    second = applied(t, {"type": "repair", "gate_id": "G1", "dice": {"repair": [5]}})
    assert (second["repair"], second["repaired"], second["jammed"]) == (5, True, False)


def battery_barrage(**fields: Any) -> dict[str, Any]:
    command = {
        "type": "barrage",
        "stand_ids": ["bat1", "bat2"],
        "weapon_id": "battery",
        "barrage_points": 5,
        "kind": "indirect",
        "target_stand_ids": ["goff", "boy"],
        "target_section_ids": ["W1"],
    }
    return {**command, **fields}


@pytest.mark.example("EX-EP-16")
@rule("EP-BARRAGE-01", "EP-BARRAGE-02", "EP-BARRAGE-03", "EP-BARRAGE-04", "EP-SAVE-05", "EP-SHOOT-03")
@rule("EP-SHOOT-04")
def test_ex_ep_16_barrages_into_the_fortress(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "W1")
    stand(t, "goff", side="defender", caf=2, location=on("W1"))
    stand(t, "boy", side="defender", caf=2, save=6, location=INSIDE)
    stand(t, "boy2", side="defender", caf=2, location=INSIDE)
    for battery in ("bat1", "bat2", "bat3"):
        stand(t, battery, "vehicle")
        order(t, battery, "first_fire")
    stand(t, "scout", location=at_foot("W1"))
    advance_to(t, "first_fire")
    assert rejected(t, battery_barrage()) == "no_spotter"
    dice = {"to_hit": [4], "unit_save": [5], "save": [1, 1]}
    result = applied(t, battery_barrage(spotter_id="scout", dice=dice))
    assert result["needed_base"] == 4
    goff, boy = result["stands"]
    assert goff == {
        "stand_id": "goff",
        "needed": 7,
        "die": None,
        "hit": False,
        "unit_save": None,
        "destroyed": False,
    }
    assert (boy["needed"], boy["die"], boy["hit"], boy["destroyed"]) == (4, 4, True, True)
    assert boy["unit_save"] == {
        "slot": "unit_save",
        "dice": [5],
        "modifiers": [],
        "total": 5,
        "target": 6,
        "success": False,
    }
    (wall,) = result["sections"]
    assert (wall["section_id"], wall["save"]["total"], wall["consecutive_failed_saves"]) == ("W1", 2, 1)
    assert wall["destroyed"] is False
    assert result["destroyed_stands"] == ["boy"]
    again = battery_barrage(stand_ids=["bat1"], spotter_id="scout")
    assert rejected(t, again) == "weapon_already_fired"
    cannon = {
        "type": "barrage",
        "stand_ids": ["bat3"],
        "weapon_id": "cannon",
        "barrage_points": 1,
        "kind": "direct",
        "target_stand_ids": ["boy2"],
        "dice": {"to_hit": [6]},
    }
    direct = applied(t, cannon)
    assert direct["stands"] == [
        {"stand_id": "boy2", "needed": 6, "die": 6, "hit": True, "unit_save": None, "destroyed": True}
    ]
    assert direct["destroyed_stands"] == ["boy2"]


@pytest.mark.example("EX-EP-17")
@rule("EP-MOVE-02", "EP-GATE-07", "EP-VEHICLE-02", "EP-WARENGINE-02", "EP-FORT-07")
def test_ex_ep_17_crossing_fortifications(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "W1")
    section(t, "G1", "gate", door="open")
    section(t, "W2", status="destroyed")
    stand(t, "rhino", "vehicle", speed_cm=20, location=at_foot("W1"))
    stand(t, "reaver", "war_engine", caf=12, speed_cm=15, location=at_foot("G1"))
    stand(t, "inf", location=at_foot("W1"))
    orders(t, rhino="advance", reaver="advance", inf="advance")
    gate_order(t, "G1", "advance")
    advance(t)

    def go(stand_id: str, to: dict[str, Any], distance: int, via: str | None = None) -> dict[str, Any]:
        command = {"type": "move", "stand_id": stand_id, "to": to, "distance_cm": distance}
        return t.send({**command, "via": via} if via else command)

    assert go("rhino", INSIDE, 5, "W1")["reason"] == "blocked_by_fortification"
    assert go("rhino", INSIDE, 10, "G1")["result"]["movement_left_cm"] == 10
    assert go("reaver", INSIDE, 5, "G1")["reason"] == "blocked_by_fortification"
    assert go("reaver", INSIDE, 10, "W2")["status"] == "applied"
    assert go("inf", INSIDE, 5, "W1")["reason"] == "must_climb"
    assert go("inf", on("W1"), 0)["reason"] == "must_climb"
    assert go("inf", INSIDE, 5, "W2")["result"]["movement_left_cm"] == 5


def fortress_garrison(new_table: TableFactory, options: dict[str, Any] | None = None) -> Table:
    """EX-EP-18 setup, advanced to first_fire."""
    t = new_table("epic", options)
    for section_id, kind in (("T1", "tower"), ("W1", "wall"), ("W2", "wall"), ("G1", "gate")):
        section(t, section_id, kind)
    for defender, where in (("gt", on("T1")), ("gw", on("W1")), ("gg", on("G1")), ("ork", INSIDE)):
        stand(t, defender, side="defender", caf=2, location=where)
    stand(t, "gs", side="defender", caf=2, save=5, location=on("W2"))
    for shooter in ("s1", "s2", "s3", "s4", "s5"):
        stand(t, shooter)
        order(t, shooter, "first_fire")
    gate_order(t, "G1", "first_fire")
    advance_to(t, "first_fire")
    return t


@pytest.mark.example("EX-EP-18")
@rule("EP-SHOOT-03", "EP-SHOOT-04", "EP-SHOOT-05", "EP-SHOOT-01")
def test_ex_ep_18_shooting_at_units_on_fortifications(new_table: TableFactory) -> None:
    t = fortress_garrison(new_table)
    tower = applied(t, fire_at_stand("s1", "gt", weapon("las", 3), to_hit=[6]))
    assert tower["to_hit"] == {"die": 6, "needed": 6, "malus": 3, "hit": True}
    assert (tower["stand_destroyed"], tower["destroyed_stands"]) == (True, ["gt"])
    assert rejected(t, fire_at_stand("s2", "gw", weapon("las", 4))) == "cannot_hit"
    gate = applied(t, fire_at_stand("s2", "gg", weapon("las", 4), to_hit=[5]))
    assert (gate["to_hit"]["needed"], gate["to_hit"]["malus"], gate["stand_destroyed"]) == (5, 1, True)
    inside = applied(t, fire_at_stand("s3", "ork", weapon("las", 4), to_hit=[3]))
    assert inside["to_hit"] == {"die": 3, "needed": 4, "malus": 0, "hit": False}
    assert (inside["stand_destroyed"], inside["unit_save"]) == (False, None)
    armoured = applied(t, fire_at_stand("s4", "gs", weapon("las", 2, -1), to_hit=[5], unit_save=[6]))
    assert armoured["to_hit"]["needed"] == 5
    assert armoured["unit_save"] == {
        "slot": "unit_save",
        "dice": [6],
        "modifiers": [{"label": "save_modifier", "value": -1}],
        "total": 5,
        "target": 5,
        "success": True,
    }
    assert (armoured["stand_destroyed"], armoured["destroyed_stands"]) == (False, [])


@pytest.mark.example("EX-EP-18")
@rule("EP-SHOOT-03")
def test_ex_ep_18_battle_b_a_natural_six_hits_when_seven_is_needed(new_table: TableFactory) -> None:
    t = fortress_garrison(new_table, {"natural_six_always_hits": True})
    result = applied(t, fire_at_stand("s2", "gw", weapon("las", 4), to_hit=[6]))
    assert (result["to_hit"]["needed"], result["to_hit"]["hit"]) == (6, True)
    assert result["destroyed_stands"] == ["gw"]


@pytest.mark.example("EX-EP-19")
@rule("EP-ORDER-01", "EP-ORDER-02", "EP-ORDER-03", "EP-ORDER-05", "EP-MOVE-01", "EP-MOVE-03")
@rule("EP-TIME-03", "EP-TIME-06", "EP-GEN-01")
def test_ex_ep_19_orders_phase_and_movement_order(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "G1", "gate")
    for attacker in ("a1", "c1", "f1", "n1"):
        stand(t, attacker)
    orders(t, a1="advance", c1="charge", f1="first_fire")
    assert rejected(t, {"type": "advance_phase"}) == "gate_without_order"
    gate_order(t, "G1", "advance")
    revealed = advance(t)
    assert revealed["revealed_orders"] == {
        "a1": "advance",
        "c1": "charge",
        "f1": "first_fire",
        "G1": "advance",
    }
    assert revealed["movement_allowances"] == {"a1": 10, "c1": 20, "f1": 0, "n1": 0}
    assert rejected(t, {"type": "give_order", "stand_id": "c1", "order": "advance"}) == "wrong_phase"
    to_gate = {"type": "move", "to": at_foot("G1")}
    assert rejected(t, {**to_gate, "stand_id": "f1", "distance_cm": 1}) == "order_forbids_move"
    assert rejected(t, {**to_gate, "stand_id": "n1", "distance_cm": 1}) == "order_forbids_move"
    assert applied(t, {**to_gate, "stand_id": "a1", "distance_cm": 8})["movement_left_cm"] == 2
    assert rejected(t, {**to_gate, "stand_id": "c1", "distance_cm": 10}) == "charge_movers_first"


@pytest.mark.example("EX-EP-20")
@rule("EP-TOWER-01", "EP-MOVE-04", "EP-ORDER-04", "EP-HOLD-03", "EP-CLIMB-03", "EP-CLIMB-08", "EP-MOVE-03")
def test_ex_ep_20_transports_passengers_and_leaving_a_held_section(new_table: TableFactory) -> None:
    t = new_table("epic")
    section(t, "W1", capacity=2)
    stand(t, "lev", "transport_war_engine", caf=6, capacity=2)
    stand(t, "tac", caf=3)
    stand(t, "tac2", caf=3, location=embarked("lev"))
    stand(t, "sct", caf=1, location=on("W1"))
    orders(t, lev="charge", tac="charge", sct="advance")
    allowances = advance(t)["movement_allowances"]
    assert allowances == {"lev": 20, "tac": 20, "tac2": 20, "sct": 10}
    boarded = applied(t, {"type": "embark", "stand_id": "tac", "transport_id": "lev"})
    assert boarded["location"] == embarked("lev")
    carried = move(t, "lev", at_foot("W1"), 10)
    assert (carried["passengers_moved"], carried["movement_left_cm"]) == (["tac", "tac2"], 10)
    held = climb(t, "tac", "W1")
    assert (held["approach"], held["automatic_reason"], held["result"]) == ("tower", "held", "foothold")
    assert (held["location"], held["movement_left_cm"]) == (on("W1"), 0)
    command = {"type": "move", "stand_id": "tac", "to": INSIDE, "distance_cm": 1}
    assert rejected(t, command) == "climbed_this_turn"
    assert applied(t, {"type": "disembark", "stand_id": "tac2"})["location"] == at_foot("W1")
    assert move(t, "sct", INSIDE, 5)["movement_left_cm"] == 5
    command = {"type": "move", "stand_id": "lev", "to": {"kind": "outside"}, "distance_cm": 5}
    assert rejected(t, command) == "charge_movers_first"


@pytest.mark.example("EX-EP-21")
@rule("EP-SHOOT-06", "EP-TIME-04", "EP-GATE-08", "EP-FORT-03", "EP-CLIMB-05")
def test_ex_ep_21_unsupported_targets_lapsing_climbs_and_a_jammed_gate_keeps_its_va(
    new_table: TableFactory,
) -> None:
    t = new_table("epic")
    section(t, "G1", "gate", door="closed", jammed=True)
    stand(t, "hound", "war_engine", side="defender", caf=4)
    stand(t, "s1")
    stand(t, "c1", caf=3, location=at_foot("G1"))
    gate_order(t, "G1", "first_fire")
    orders(t, s1="first_fire", c1="charge")
    advance(t)
    pending = climb(t, "c1", "G1")
    assert (pending["defended"], pending["result"], pending["movement_left_cm"]) == (False, "pending", 15)
    advance_to(t, "first_fire")
    assert rejected(t, fire_at_stand("s1", "hound", weapon("bolter", 4))) == "unsupported_target"
    assert rejected(t, fire_at_stand("s1", "c1", weapon("bolter", 4))) == "friendly_target"
    advance_to(t, "close_combat")
    lapsing = advance(t)
    assert (lapsing["phase_after"], lapsing["lapsed_climbs"]) == ("advance_fire", ["c1"])
    advance_to(t, "orders")
    gate_order(t, "G1", "first_fire")
    order(t, "c1", "charge")
    advance(t)
    assert climb(t, "c1", "G1")["result"] == "pending"
    advance_to(t, "close_combat")
    result = assault(t, "c1", "G1", attacker=[2, 2])
    assert (result["attacker"]["total"], result["target"], result["result"]) == (7, 6, "success")
    assert result["attacker_location"] == on("G1")
