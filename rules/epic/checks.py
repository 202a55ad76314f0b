"""The checks every command passes first (spec §2 order): fields, ids, dice faces, phase, a living actor."""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from rules.dice import Dice
from rules.epic.board import exists, find_stand
from rules.epic.commands import (
    AddFortification,
    AddStand,
    AdvancePhase,
    Assault,
    Barrage,
    Climb,
    Command,
    Disembark,
    Embark,
    Fire,
    GiveOrder,
    Move,
    OperateGate,
    Repair,
)
from rules.epic.references import all_known
from rules.epic.state import EpicState
from rules.epic.tables import DICE_SLOTS, Phase
from rules.errors import Rejected

SHOOTING: frozenset[Phase] = frozenset({"first_fire", "advance_fire"})
# EP-TIME-06; gates are judged further by their own order in operate_gate (§3.11)
GATE_PHASES: frozenset[Phase] = frozenset({"movement", "first_fire", "close_combat", "advance_fire"})
ORDERS: frozenset[Phase] = frozenset({"orders"})
MOVEMENT: frozenset[Phase] = frozenset({"movement"})
CLOSE_COMBAT: frozenset[Phase] = frozenset({"close_combat"})
END: frozenset[Phase] = frozenset({"end"})
# isinstance tuples built once: a `A | B` union is built anew each time the expression runs
CREATES = (AddFortification, AddStand)
ONE_ACTOR = (Move, Embark, Disembark, Climb, Assault, Fire)


def check_first(command: Command, state: EpicState, dice: Dice) -> None:
    if _fields_conflict(command):
        raise Rejected("invalid_field")
    if not all_known(command, state):
        raise Rejected("unknown_entity")
    if isinstance(command, CREATES) and exists(state, command.id):
        raise Rejected("duplicate_id")
    dice.check_ranges(DICE_SLOTS)
    phases = _phases(command)
    if phases is not None and state.phase not in phases:
        raise Rejected("wrong_phase")
    if any(stand.destroyed for stand in (find_stand(state, i) for i in _actors(command)) if stand):
        raise Rejected("stand_destroyed")


def _fields_conflict(command: Command) -> bool:
    """Field errors only a combination of fields reveals (§2 `invalid_field`)."""
    match command:
        case AddFortification(kind=kind, door=door, jammed=jammed, adjacent=adjacent):
            gate_fields_on_other = kind != "gate" and (door is not None or jammed is not None)
            return gate_fields_on_other or command.id in adjacent or _repeats(adjacent)
        case AddStand(stand_type=stand_type, capacity=capacity, location=location):
            self_carried = location.kind == "embarked" and location.transport_id == command.id
            return (capacity > 0 and stand_type != "transport_war_engine") or self_carried
        case GiveOrder(stand_id=stand_id, gate_id=gate_id):
            return (stand_id is None) == (gate_id is None)
        case Move(to=to):
            return to.kind == "embarked"
        case Embark(stand_id=stand_id, transport_id=transport_id):
            return stand_id == transport_id
        case Fire(target=target):
            return (target.section_id is None) == (target.stand_id is None)
        case Barrage(stand_ids=stands, target_stand_ids=target_stands, target_section_ids=target_sections):
            no_target = not target_stands and not target_sections
            return no_target or _repeats(stands) or _repeats(target_stands) or _repeats(target_sections)
        case AdvancePhase() | Disembark() | Climb() | Assault() | OperateGate() | Repair():
            return False
        case _:
            assert_never(command)


def _phases(command: Command) -> frozenset[Phase] | None:
    """EP-TIME-06: the phases a command is accepted in (None: any phase)."""
    match command:
        case AdvancePhase() | AddFortification() | AddStand():
            return None
        case GiveOrder():
            return ORDERS
        case Move() | Embark() | Disembark() | Climb():
            return MOVEMENT
        case Fire() | Barrage():
            return SHOOTING
        case Assault():
            return CLOSE_COMBAT
        case OperateGate():
            return GATE_PHASES
        case Repair():
            return END
        case _:
            assert_never(command)


def _actors(command: Command) -> Iterable[str]:
    """The stands that act (EP-GEN-07: a destroyed one cannot)."""
    if isinstance(command, Barrage):
        return command.stand_ids
    if isinstance(command, GiveOrder):
        return [command.stand_id] if command.stand_id else []
    if isinstance(command, ONE_ACTOR):
        return [command.stand_id]
    return []


def _repeats(ids: tuple[str, ...]) -> bool:
    return len(set(ids)) != len(ids)
