"""The common checks of §2, in the spec's order: those run first for every command (`unknown_entity`,
`duplicate_id`, `dice_value_out_of_range`), then the "actor checks" and "engine checks" handlers run."""

from __future__ import annotations

from collections.abc import Iterable

from rules.declare import spec_of as declared
from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder.ammo import damage_dice
from rules.pathfinder.board import find_engine, spec_of
from rules.pathfinder.commands import Command
from rules.pathfinder.crew_status import crew_status
from rules.pathfinder.dice_slots import DICE_SLOTS
from rules.pathfinder.events import ActionKind
from rules.pathfinder.refs import known
from rules.pathfinder.state import Creature, Engine, PfState
from rules.pathfinder.time import can_spend, creature_busy, engine_busy
from rules.references import check_ids


def check_common(command: Command, state: PfState, dice: Dice) -> None:
    check_ids(command, state, known)
    if dice.supplied_any:  # the faces of each slot are looked up only when there is a value to check
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


def actor_checks(state: PfState, actor: Creature, action: ActionKind | None, count: int = 1) -> None:
    """Not down, not busy, and (unless a free action) the action still available this round."""
    if actor.down:
        raise Rejected("creature_down", id=actor.id)
    if creature_busy(state, actor):
        raise Rejected("creature_busy", id=actor.id)
    if action is not None and not can_spend(actor.actions, action, count):
        raise Rejected("action_unavailable", id=actor.id, action=action)


def actors_check(
    state: PfState, actors: Iterable[Creature], action: ActionKind | None, count: int = 1
) -> None:
    for actor in actors:
        actor_checks(state, actor, action, count)


def engine_checks(state: PfState, engine: Engine) -> None:
    """Not destroyed, assembled, not busy, not disabled, has a crew that is not insufficient."""
    if engine.destroyed:
        raise Rejected("engine_destroyed", id=engine.id)
    if not engine.assembled:
        raise Rejected("engine_not_assembled", id=engine.id)
    if engine_busy(state, engine):
        raise Rejected("engine_busy", id=engine.id)
    if engine.disabled:
        raise Rejected("engine_disabled", id=engine.id)
    status = crew_status(state, engine)
    if status is None:
        return  # no crew status (assault bridges, PF-CREW-03)
    if not engine.crew_ids:
        raise Rejected("no_crew", id=engine.id)
    if status == "insufficient":
        raise Rejected("crew_insufficient", id=engine.id)
