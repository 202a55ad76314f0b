"""The checks every command passes first (spec §2 order; a combination of fields that is invalid was refused
when the record was built): ids, new ids, dice faces, phase, a living actor."""

from __future__ import annotations

from rules.declare import spec_of
from rules.dice import Dice
from rules.epic.board import find_stand
from rules.epic.commands import Command
from rules.epic.refs import known
from rules.epic.state import EpicState
from rules.epic.tables import DICE_SLOTS
from rules.errors import Rejected
from rules.references import check_ids, walk


def check_first(command: Command, state: EpicState, dice: Dice) -> None:
    walked = walk(command)
    check_ids(command, state, known, walked)
    dice.check_ranges(DICE_SLOTS)
    phases = spec_of(type(command)).phases
    if phases is not None and state.phase not in phases:
        raise Rejected("wrong_phase", phase=state.phase, allowed=list(phases))
    for _, (kind, entity_id), acting in walked:
        stand = find_stand(state, entity_id) if acting and kind == "stand" else None
        if stand is not None and stand.destroyed:
            raise Rejected("stand_destroyed", id=entity_id)
