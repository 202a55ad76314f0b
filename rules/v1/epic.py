"""The summaries `epic-1` wrote, one per command type: each f-string its handler had at commit 3d3a22b^,
with the handler's own variables read off the command and its result record."""

from __future__ import annotations

from collections.abc import Mapping

from rules.epic import commands as c
from rules.epic import results as r
from rules.v1 import Summary


def advance_phase(command: c.AdvancePhase, result: r.PhaseAdvance) -> str:
    return f"turn {result.turn}: {result.phase_before} → {result.phase_after}"


def add_fortification(command: c.AddFortification, result: r.FortificationPlaced) -> str:
    return f"{command.kind} {command.id} added"


def add_stand(command: c.AddStand, result: r.StandPlaced) -> str:
    return f"{command.side} {command.stand_type} {command.id} added"


def give_order(command: c.GiveOrder, result: r.Ordered) -> str:
    return f"{result.target} ordered to {result.order}"


def move(command: c.Move, result: r.Moved) -> str:
    return f"{command.stand_id} moves {command.distance_cm} cm to {command.to.kind}"


def embark(command: c.Embark, result: r.Boarding) -> str:
    return f"{result.stand_id} embarks in {result.transport_id}"


def disembark(command: c.Disembark, result: r.Boarding) -> str:
    return f"{result.stand_id} leaves {result.transport_id}"


def climb(command: c.Climb, result: r.ClimbMade) -> str:
    if result.result == "foothold":
        return f"{result.stand_id} takes a foothold on {result.section_id} ({result.automatic_reason})"
    return f"{result.stand_id} will have to fight for {result.section_id}"


def assault(command: c.Assault, result: r.AssaultResolved) -> str:
    attacker, target, verdict = command.stand_id, command.section_id, result.result
    if result.kind == "automatic":
        return f"{attacker} climbs onto {target} unopposed"
    if result.kind == "undefended_climb":
        return f"{attacker} climbs {target}: {verdict}"
    if result.kind == "war_engine":
        return f"{attacker} attacks {target}: {verdict}"
    assert result.attacker is not None and result.defender is not None  # a fight rolls for both sides
    score = f"{result.attacker.total} vs {result.defender.total}"
    return f"{attacker} against {result.defender.stand_id} on {target}: {verdict} ({score})"


def fire(command: c.Fire, result: r.Shot) -> str:
    section = command.target.section_id
    if section is not None:
        return f"{command.stand_id} fires at {section}: " + ("hit" if result.to_hit.hit else "miss")
    told = "destroyed" if result.stand_destroyed else "hit" if result.to_hit.hit else "miss"
    return f"{command.stand_id} fires at {command.target.stand_id}: {told}"


def barrage(command: c.Barrage, result: r.BarrageFired) -> str:
    return f"barrage {command.weapon_id}: {len(result.destroyed_stands)} stand(s) destroyed"


def operate_gate(command: c.OperateGate, result: r.GateWorked) -> str:
    return f"gate {result.gate_id}: {command.action} " + ("jammed" if result.jammed else "done")


def repair(command: c.Repair, result: r.RepairTried) -> str:
    return f"gate {result.gate_id} " + ("repaired" if result.repaired else "still jammed")


SUMMARIES: Mapping[str, Summary] = {
    "advance_phase": advance_phase,
    "add_fortification": add_fortification,
    "add_stand": add_stand,
    "give_order": give_order,
    "move": move,
    "embark": embark,
    "disembark": disembark,
    "climb": climb,
    "assault": assault,
    "fire": fire,
    "barrage": barrage,
    "operate_gate": operate_gate,
    "repair": repair,
}
