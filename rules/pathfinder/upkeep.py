"""Upkeep: assembly (PF-ASSEMBLE-01..05), repair (PF-REPAIR-01..04), disabling (PF-DISABLE-01..03)."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.commands import Assemble, Disable, Repair
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome


def assemble(command: Assemble, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("assemble: not implemented yet")


def repair(command: Repair, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("repair: not implemented yet")


def disable(command: Disable, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("disable: not implemented yet")
