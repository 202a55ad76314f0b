"""Breaking and operating structures (PF-STRUCT-07/08): `break` and `operate_gate`."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.commands import Break, OperateGate
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome


def break_structure(command: Break, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("break_structure: not implemented yet")


def operate_gate(command: OperateGate, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("operate_gate: not implemented yet")
