"""Moving engines (PF-MOVE-01..06, PF-ENGINE-07): `move_engine`."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.commands import MoveEngine
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome


def move_engine(command: MoveEngine, state: PfState, dice: Dice) -> Outcome:
    raise NotImplementedError("move_engine: not implemented yet")
