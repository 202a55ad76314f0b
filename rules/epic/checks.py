"""The checks every command passes first (spec §2 order; a combination of fields that is invalid was refused
when the record was built): ids, new ids, dice faces, phase, a living actor."""

from __future__ import annotations

from rules.declare import spec_of
from rules.dice import Dice
from rules.epic.board import exists, find_stand
from rules.epic.commands import Command
from rules.epic.refs import known
from rules.epic.state import EpicState
from rules.epic.tables import DICE_SLOTS
from rules.errors import Rejected
from rules.references import actors, new_ids, references


def check_first(command: Command, state: EpicState, dice: Dice) -> None:
    if not all(known(state, kind, entity_id) for kind, entity_id in references(command)):
        raise Rejected("unknown_entity")
    if any(exists(state, entity_id) for entity_id in new_ids(command)):
        raise Rejected("duplicate_id")
    dice.check_ranges(DICE_SLOTS)
    phases = spec_of(type(command)).phases
    if phases is not None and state.phase not in phases:
        raise Rejected("wrong_phase")
    stands = (find_stand(state, entity_id) for kind, entity_id in actors(command) if kind == "stand")
    if any(stand.destroyed for stand in stands if stand):
        raise Rejected("stand_destroyed")
