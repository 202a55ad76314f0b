"""Gates: EP-GATE-01..08, EP-FORT-03 (`operate_gate`, `repair`, automatic closing, the First Fire bonus)."""

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
    gate_order,
    order,
    rejected,
    section,
    stand,
)

rule = pytest.mark.rule


def operate(action: str, gate_id: str = "G1", **dice: Any) -> dict[str, Any]:
    return {"type": "operate_gate", "gate_id": gate_id, "action": action, "dice": dice}


def gate(rules_table: TableFactory, given: str | None, **fields: Any) -> Table:
    t = rules_table("epic")
    section(t, "G1", "gate", **fields)
    if given:
        gate_order(t, "G1", given)
    return t


@rule("EP-GATE-04", "EP-GATE-01")
def test_a_charge_gate_opens_then_closes_in_the_same_turn_in_any_combat_phase(
    rules_table: TableFactory,
) -> None:
    t = gate(rules_table, "charge")
    advance_to(t, "first_fire")
    opened = applied(t, operate("open", jam=[5]))
    assert opened == {
        "gate_id": "G1",
        "order": "charge",
        "action": "open",
        "jam": 5,
        "jammed": False,
        "performed": True,
        "door": "open",
        "turn": 1,
        "phase": "first_fire",
        "dice_used": {"jam": [5]},
        "unused_dice": {},
    }
    advance(t)
    closed = applied(t, operate("close", jam=[1]))
    assert (closed["door"], closed["performed"]) == ("closed", True)
    assert rejected(t, operate("open")) == "already_operated_this_turn"


@rule("EP-GATE-04")
def test_a_charge_gate_that_starts_open_may_only_be_closed_and_not_opened_after(
    rules_table: TableFactory,
) -> None:
    t = gate(rules_table, "charge", door="open")
    advance(t)
    assert rejected(t, operate("open")) == "gate_already_open"
    applied(t, operate("close", jam=[2]))
    assert rejected(t, operate("open")) == "already_operated_this_turn"
    assert rejected(t, operate("close")) == "gate_already_closed"


@rule("EP-GATE-04", "EP-GATE-05")
def test_a_jam_on_closing_leaves_the_door_open_and_refuses_every_operation(rules_table: TableFactory) -> None:
    t = gate(rules_table, "charge", door="open")
    advance_to(t, "advance_fire")
    jammed = applied(t, operate("close", jam=[6]))
    assert (jammed["performed"], jammed["jammed"], jammed["door"]) == (False, True, "open")
    assert rejected(t, operate("close")) == "gate_jammed"
    leaving = advance(t)
    assert (leaving["auto_closed_gates"], leaving["dice_used"]) == ([], {})


@rule("EP-GATE-02")
def test_a_first_fire_gate_never_operates(rules_table: TableFactory) -> None:
    t = gate(rules_table, "first_fire")
    advance(t)
    assert rejected(t, operate("open")) == "order_forbids_operation"
    advance(t)
    assert rejected(t, operate("open")) == "order_forbids_operation"


@rule("EP-GATE-03", "EP-TIME-06")
def test_an_advance_gate_operates_only_in_movement_and_needs_no_dice(rules_table: TableFactory) -> None:
    t = gate(rules_table, "advance")
    advance_to(t, "close_combat")
    assert rejected(t, operate("open")) == "wrong_phase"


@rule("EP-GATE-03", "EP-MOVE-03")
def test_an_advance_gate_operation_counts_as_an_advance_mover_but_a_charge_gate_ignores_the_window(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic")
    section(t, "G1", "gate")
    section(t, "G2", "gate")
    stand(t, "chg")
    stand(t, "adv")
    order(t, "chg", "charge")
    order(t, "adv", "advance")
    gate_order(t, "G1", "advance")
    gate_order(t, "G2", "charge")
    advance(t)
    applied(t, {"type": "move", "stand_id": "adv", "to": {"kind": "outside"}, "distance_cm": 1})
    assert applied(t, operate("open", "G2", jam=[3]))["performed"] is True
    assert applied(t, operate("open", "G1"))["performed"] is True


@rule("EP-GATE-05", "EP-ORDER-03")
def test_a_jammed_gate_refuses_operations_under_any_order_and_is_repaired_on_five_or_more(
    rules_table: TableFactory,
) -> None:
    t = gate(rules_table, "advance", jammed=True)
    advance(t)
    assert rejected(t, operate("open")) == "gate_jammed"
    advance_to(t, "end")
    repaired = applied(t, {"type": "repair", "gate_id": "G1", "dice": {"repair": 5}})
    assert repaired == {
        "gate_id": "G1",
        "repair": 5,
        "repaired": True,
        "jammed": False,
        "turn": 1,
        "phase": "end",
        "dice_used": {"repair": [5]},
        "unused_dice": {},
    }
    assert rejected(t, {"type": "repair", "gate_id": "G1"}) == "gate_not_jammed"


@rule("EP-GATE-05")
def test_repair_needs_an_intact_gate(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "W1")
    section(t, "Gx", "gate", status="destroyed", jammed=True)
    advance_to(t, "end")
    assert rejected(t, {"type": "repair", "gate_id": "W1"}) == "not_a_gate"
    assert rejected(t, {"type": "repair", "gate_id": "Gx"}) == "section_destroyed"


@rule("EP-GATE-01", "EP-FORT-07")
def test_operate_gate_checks_gate_then_destroyed_then_order(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "W1")
    section(t, "Gx", "gate", status="destroyed")
    section(t, "G1", "gate")
    gate_order(t, "G1", "first_fire")
    advance(t)
    section(t, "G2", "gate")
    assert rejected(t, operate("open", "W1")) == "not_a_gate"
    assert rejected(t, operate("open", "Gx")) == "section_destroyed"
    assert rejected(t, operate("open", "G2")) == "no_order"


@rule("EP-GATE-03")
def test_an_advance_gate_may_reverse_its_operation_only_in_a_later_turn(rules_table: TableFactory) -> None:
    t = gate(rules_table, "advance", door="open")
    advance(t)
    applied(t, operate("close"))
    assert rejected(t, operate("open")) == "already_operated_this_turn"


def gate_climb(rules_table: TableFactory, **options: Any) -> Table:
    """c1 (caf 3) has a pending undefended climb on an open First Fire gate, in close combat."""
    t = rules_table("epic", options)
    section(t, "G1", "gate", door="open")
    stand(t, "c1", caf=3, location=at_foot("G1"))
    order(t, "c1", "charge")
    gate_order(t, "G1", "first_fire")
    advance(t)
    climb(t, "c1", "G1")
    advance_to(t, "close_combat")
    return t


@rule("EP-FORT-03", "EP-GATE-02", "EP-GATE-08")
def test_the_first_fire_bonus_to_va_holds_even_with_the_door_open(rules_table: TableFactory) -> None:
    result = assault(gate_climb(rules_table), "c1", "G1", attacker=[2, 1])
    assert (result["target"], result["result"]) == (6, "failure")


@rule("EP-FORT-03", "EP-GATE-08")
def test_under_ta_bonus_only_when_closed_an_open_gate_loses_the_bonus(rules_table: TableFactory) -> None:
    result = assault(gate_climb(rules_table, ta_bonus_only_when_closed=True), "c1", "G1", attacker=[2, 1])
    assert (result["target"], result["result"]) == (4, "success")


@rule("EP-GATE-07")
def test_infantry_passes_an_open_gate_but_not_a_closed_one(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "G1", "gate")
    stand(t, "inf", location=at_foot("G1"))
    order(t, "inf", "charge")
    gate_order(t, "G1", "charge")
    advance(t)
    through = {"type": "move", "stand_id": "inf", "to": INSIDE, "distance_cm": 1, "via": "G1"}
    assert rejected(t, through) == "must_climb"
    applied(t, operate("open", jam=[1]))
    assert applied(t, through)["via"] == "G1"
