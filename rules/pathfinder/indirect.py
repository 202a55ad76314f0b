"""Indirect fire (PF-INDIRECT-01..08): targeting checks, successive shots and `observe`."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.commands import Observe
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome


def observe(command: Observe, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("observe: not implemented yet")
