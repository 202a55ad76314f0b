"""Close-assault engines (PF-ASSAULT-01..11): ram, assault bridge, corvus, crushing wheel."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.commands import Crush, DislodgeCorvus, RaiseBridge, Ram, UseCorvus
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome


def ram(command: Ram, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("ram: not implemented yet")


def raise_bridge(command: RaiseBridge, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("raise_bridge: not implemented yet")


def use_corvus(command: UseCorvus, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("use_corvus: not implemented yet")


def dislodge_corvus(command: DislodgeCorvus, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("dislodge_corvus: not implemented yet")


def crush(command: Crush, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("crush: not implemented yet")
