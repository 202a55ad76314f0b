"""The decider: the checks every command passes first, then one area module per command (spec §3)."""

from __future__ import annotations

from typing import assert_never

from rules.dice import Dice
from rules.epic.assault import assault
from rules.epic.barrage import barrage
from rules.epic.checks import check_first
from rules.epic.climb import climb
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
from rules.epic.events import Event
from rules.epic.gates import operate_gate, repair
from rules.epic.movement import move
from rules.epic.orders import give_order
from rules.epic.phases import advance_phase
from rules.epic.setup import add_fortification, add_stand
from rules.epic.shooting import fire
from rules.epic.state import EpicState
from rules.epic.transports import disembark, embark
from rules.ruleset import Outcome


def decide(command: Command, state: EpicState, dice: Dice) -> Outcome[Event]:
    """Raises `Rejected(reason)` at the first failed precondition; otherwise the result and its events."""
    check_first(command, state, dice)
    match command:
        case AdvancePhase():
            return advance_phase(command, state, dice)
        case AddFortification():
            return add_fortification(command, state)
        case AddStand():
            return add_stand(command, state)
        case GiveOrder():
            return give_order(command, state)
        case Move():
            return move(command, state)
        case Embark():
            return embark(command, state)
        case Disembark():
            return disembark(command, state)
        case Climb():
            return climb(command, state)
        case Assault():
            return assault(command, state, dice)
        case Fire():
            return fire(command, state, dice)
        case Barrage():
            return barrage(command, state, dice)
        case OperateGate():
            return operate_gate(command, state, dice)
        case Repair():
            return repair(command, state, dice)
        case _:
            assert_never(command)
