"""Gate operations by order (EP-GATE-02..04), jams and repairs (EP-GATE-05), auto-closing (EP-GATE-06)."""

from __future__ import annotations

from typing import Literal

from rules.dice import Dice
from rules.epic.board import find_section
from rules.epic.commands import OperateGate, Repair
from rules.epic.events import Event, GateOperated, GateRepairTried
from rules.epic.movers import mover_events
from rules.epic.results import ClosedGate, GateWorked, RepairTried
from rules.epic.state import EpicState, Section
from rules.epic.tables import JAM_FACE, REPAIR_NEEDED
from rules.errors import Rejected
from rules.ruleset import Outcome


def operate_gate(command: OperateGate, state: EpicState, dice: Dice) -> Outcome[Event]:
    gate = _intact_gate(state, command.gate_id)
    if gate.order is None:
        raise Rejected("no_order")
    if gate.order == "advance" and state.phase != "movement":
        raise Rejected("wrong_phase")
    if gate.order == "first_fire":
        raise Rejected("order_forbids_operation")
    if gate.jammed:
        raise Rejected("gate_jammed")
    wanted: Literal["closed", "open"] = "open" if command.action == "open" else "closed"
    if gate.door == wanted:
        raise Rejected(f"gate_already_{wanted}")
    if _operated_already(gate, command.action):
        raise Rejected("already_operated_this_turn")
    jam = dice.one("jam", 6) if gate.order == "charge" else None
    jammed = jam == JAM_FACE
    door = (gate.door or "closed") if jammed else wanted
    event = GateOperated(
        gate_id=gate.id, action=command.action, performed=not jammed, jammed=jammed, door=door
    )
    result = GateWorked(
        gate_id=gate.id,
        order=gate.order,
        action=command.action,
        jam=jam,
        jammed=jammed,
        performed=not jammed,
        door=door,
    )
    return Outcome(result=result, events=(event, *mover_events(state, gate.order)))


def repair(command: Repair, state: EpicState, dice: Dice) -> Outcome[Event]:
    gate = _intact_gate(state, command.gate_id)
    if not gate.jammed:
        raise Rejected("gate_not_jammed")
    if gate.repair_tried_this_turn:
        raise Rejected("already_repaired_this_turn")
    value = dice.one("repair", 6)
    repaired = value >= REPAIR_NEEDED
    result = RepairTried(gate_id=gate.id, repair=value, repaired=repaired, jammed=not repaired)
    return Outcome(result=result, events=(GateRepairTried(gate_id=gate.id, repaired=repaired),))


def auto_close(state: EpicState, dice: Dice) -> tuple[tuple[ClosedGate, ...], tuple[Event, ...]]:
    """EP-GATE-06: open, intact, unjammed Charge gates get a closing with its jam roll, in creation order."""
    closed: list[ClosedGate] = []
    events: list[Event] = []
    for gate in state.sections:
        if not (
            gate.is_gate
            and gate.intact
            and gate.order == "charge"
            and gate.door == "open"
            and not gate.jammed
        ):
            continue
        jam = dice.one("jam", 6)
        jammed = jam == JAM_FACE
        door: Literal["closed", "open"] = "open" if jammed else "closed"
        closed.append(ClosedGate(gate_id=gate.id, jam=jam, jammed=jammed, door=door))
        events.append(
            GateOperated(
                gate_id=gate.id,
                action="close",
                performed=not jammed,
                jammed=jammed,
                door=door,
                automatic=True,
            )
        )
    return tuple(closed), tuple(events)


def _intact_gate(state: EpicState, gate_id: str) -> Section:
    gate = find_section(state, gate_id)
    if gate is None or not gate.is_gate:
        raise Rejected("not_a_gate")
    if not gate.intact:
        raise Rejected("section_destroyed")
    return gate


def _operated_already(gate: Section, action: Literal["open", "close"]) -> bool:
    """Advance: one operation a turn (EP-GATE-03). Charge: one opening, then one closing (EP-GATE-04)."""
    if gate.order == "advance":
        return bool(gate.operations_this_turn)
    if action == "open":
        return bool(gate.opened_this_turn or gate.closed_this_turn)
    return bool(gate.closed_this_turn)
