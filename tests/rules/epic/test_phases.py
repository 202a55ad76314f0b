"""Turns and phases: EP-TIME-01..05 (advance_phase; leaving orders reveals them, EP-ORDER-03..05)."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.harness import RulesTable
from tests.rules.epic.given import (
    advance,
    advance_to,
    applied,
    at_foot,
    climb,
    fire_at_section,
    gate_order,
    order,
    rejected,
    section,
    stand,
    weapon,
)

rule = pytest.mark.rule


@rule("EP-TIME-01")
def test_phases_follow_each_other_and_the_end_phase_starts_the_next_turn(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    steps = [advance(t) for _ in range(7)]
    assert [(s["phase_before"], s["phase_after"], s["turn"]) for s in steps] == [
        ("orders", "movement", 1),
        ("movement", "first_fire", 1),
        ("first_fire", "close_combat", 1),
        ("close_combat", "advance_fire", 1),
        ("advance_fire", "end", 1),
        ("end", "orders", 2),
        ("orders", "movement", 2),
    ]
    assert (steps[5]["turn"], steps[5]["phase"]) == (2, "orders")


@rule("EP-TIME-01")
def test_advance_phase_reports_null_for_what_does_not_apply_and_lists_always(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic")
    advance(t)
    result = advance(t)
    assert result["revealed_orders"] is None
    assert result["movement_allowances"] is None
    assert result["lapsed_climbs"] == []
    assert result["auto_closed_gates"] is None


@rule("EP-TIME-02")
def test_a_new_turn_clears_orders_movement_climbs_and_fired_weapons(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "G1", "gate")
    stand(t, "a", location=at_foot("G1"))
    stand(t, "b")
    order(t, "a", "charge")
    order(t, "b", "first_fire")
    gate_order(t, "G1", "charge")
    advance(t)
    climb(t, "a", "G1")
    applied(t, {"type": "operate_gate", "gate_id": "G1", "action": "open", "dice": {"jam": [1]}})
    advance(t)
    applied(t, fire_at_section("b", "G1", weapon(), to_hit=[1]))
    advance_to(t, "advance_fire")
    applied(t, {"type": "advance_phase", "dice": {"jam": [1]}})
    advance(t)
    state = t.state()
    a, b = state["stands"]
    assert (a["order"], a["movement_left_cm"], a["pending_climb"], b["fired_weapons"]) == (None, 0, None, [])
    gate = state["sections"][0]
    assert (
        gate["order"],
        gate["opened_this_turn"],
        gate["closed_this_turn"],
        gate["operations_this_turn"],
    ) == (
        None,
        False,
        False,
        0,
    )
    assert gate["door"] == "closed"  # closed again when advance_fire ended (EP-GATE-06)


@rule("EP-TIME-03", "EP-ORDER-03", "EP-ORDER-05")
def test_leaving_orders_needs_every_intact_gate_ordered_and_reveals_the_orders(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic")
    section(t, "G1", "gate")
    section(t, "G2", "gate", status="destroyed")
    stand(t, "a", speed_cm=7)
    assert rejected(t, {"type": "advance_phase"}) == "gate_without_order"
    assert rejected(t, {"type": "give_order", "gate_id": "G2", "order": "advance"}) == "section_destroyed"
    assert gate_order(t, "G1", "first_fire") == {
        "target": "G1",
        "order": "first_fire",
        "turn": 1,
        "phase": "orders",
        "dice_used": {},
        "unused_dice": {},
    }
    order(t, "a", "advance")
    result = advance(t)
    assert (result["revealed_orders"], result["movement_allowances"]) == (
        {"a": "advance", "G1": "first_fire"},
        {"a": 7},
    )


@rule("EP-TIME-04", "EP-CLIMB-02")
def test_unresolved_climbs_lapse_when_close_combat_ends_without_refund(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "W1")
    stand(t, "goff", side="defender", location=at_foot("W1"))
    stand(t, "c1", location=at_foot("W1"))
    stand(t, "c2", location=at_foot("W1"))
    order(t, "c2", "charge")
    order(t, "c1", "charge")
    advance(t)
    climb(t, "c2", "W1")
    climb(t, "c1", "W1")
    advance_to(t, "close_combat")
    assert advance(t)["lapsed_climbs"] == ["c1", "c2"]
    stands = t.state()["stands"]
    assert [(s["pending_climb"], s["movement_left_cm"], s["location"]) for s in stands[1:]] == [
        (None, 15, at_foot("W1")),
        (None, 15, at_foot("W1")),
    ]


@rule("EP-TIME-05", "EP-GATE-06")
def test_leaving_advance_fire_closes_open_charge_gates_in_creation_order(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "G1", "gate")
    section(t, "G2", "gate", door="open")
    section(t, "G3", "gate", door="open")
    section(t, "G4", "gate", door="open", jammed=True)
    section(t, "G5", "gate", door="open")  # after two gates passed over: still closed
    gate_order(t, "G1", "charge")
    gate_order(t, "G2", "charge")
    gate_order(t, "G3", "advance")
    gate_order(t, "G4", "charge")
    gate_order(t, "G5", "charge")
    advance(t)
    applied(t, {"type": "operate_gate", "gate_id": "G1", "action": "open", "dice": {"jam": [2]}})
    advance_to(t, "advance_fire")
    result = applied(t, {"type": "advance_phase", "dice": {"jam": [4, 6, 1]}})
    assert result["auto_closed_gates"] == [
        {"gate_id": "G1", "jam": 4, "jammed": False, "door": "closed"},
        {"gate_id": "G2", "jam": 6, "jammed": True, "door": "open"},
        {"gate_id": "G5", "jam": 1, "jammed": False, "door": "closed"},
    ]
    assert isinstance(t, RulesTable)  # only the in-process table keeps every outcome
    assert [(r["slot"], r["die"]) for r in t.outcomes[-1]["rolls"]] == [("jam", "d6")] * 3
    closings = [c for c in t.outcomes[-1]["changes"] if c["event"] == "GateOperated"]
    closed = {"event": "GateOperated", "action": "close", "automatic": True}
    assert closings == [
        {**closed, "gate_id": gate, "performed": not jammed, "jammed": jammed, "door": door}
        for gate, jammed, door in (("G1", False, "closed"), ("G2", True, "open"), ("G5", False, "closed"))
    ]
    doors = {s["id"]: (s["door"], s["jammed"]) for s in t.state()["sections"]}
    assert doors == {
        "G1": ("closed", False),
        "G2": ("open", True),
        "G3": ("open", False),
        "G4": ("open", True),
        "G5": ("closed", False),
    }
