"""Aiming (PF-AIM-01..05): `aim`."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.commands import Aim
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome


def aim(command: Aim, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("aim: not implemented yet")
