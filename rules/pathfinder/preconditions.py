"""Checks run first for every command (§2): `unknown_entity`, `duplicate_id`, `dice_value_out_of_range`."""

from __future__ import annotations

from rules.declare import spec_of as declared
from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder.ammo import damage_dice
from rules.pathfinder.board import find_engine, kind_of, spec_of
from rules.pathfinder.commands import Command
from rules.pathfinder.dice_slots import DICE_SLOTS
from rules.pathfinder.refs import known
from rules.pathfinder.state import PfState
from rules.references import new_ids, references


def check_common(command: Command, state: PfState, dice: Dice) -> None:
    if not all(known(state, kind, entity_id) for kind, entity_id in references(command)):
        raise Rejected("unknown_entity")
    if any(kind_of(state, ident) is not None for ident in new_ids(command)):
        raise Rejected("duplicate_id")
    dice.check_ranges({**DICE_SLOTS, **varying_sides(command, state)})


def varying_sides(command: Command, state: PfState) -> dict[str, int | None]:
    """Faces of the slots whose die depends on the engine and its ammunition (damage, explosion)."""
    drawn = declared(type(command)).dice
    engine = find_engine(state, getattr(command, "engine_id", "")) if "damage" in drawn else None
    if engine is None:
        return {}
    spec = spec_of(engine)
    shoots = "explosion_damage" in drawn  # only `fire` shoots ammunition, and only a shot may explode (§4)
    sides: dict[str, int | None] = {}
    shot = damage_dice(spec, engine.ammunition or "standard") if shoots else spec.damage
    if shot is not None:
        sides["damage"] = shot.sides
    if spec.damage is not None and shoots:
        sides["explosion_damage"] = spec.damage.sides
    return sides
