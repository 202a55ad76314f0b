"""Firing (§3.13): preconditions, then the direct, indirect, area or blast-shot resolution."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.commands import Fire
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome


def fire(command: Fire, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("fire: not implemented yet")
