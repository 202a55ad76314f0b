"""Loading (PF-LOAD-01..04): `load`."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.commands import Load
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome


def load(command: Load, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("load: not implemented yet")
