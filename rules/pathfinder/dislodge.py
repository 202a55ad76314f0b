"""Dislodging a corvus (§3.22, PF-ASSAULT-07): Strength or driving against 15 + 5 per Small or Medium
occupant; loose, it may be destroyed, and its occupants save or fall."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder.board import creature
from rules.pathfinder.checks import actor_checks
from rules.pathfinder.commands import DislodgeCorvus
from rules.pathfinder.corvus import corvus_of
from rules.pathfinder.events import (
    ActionKind,
    ActionsSpent,
    ConditionsAdded,
    CorvusChanged,
    EngineDestroyed,
    Event,
)
from rules.pathfinder.results import CorvusDislodged, OccupantSave
from rules.pathfinder.rolls import Check, mods, plain_check, saving_throw, strength_check
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome

BASE_DC, PER_SMALL_OR_MEDIUM = 15, 5
DESTROY_MARGIN = 5
FALL_DC = 15


def dislodge_corvus(command: DislodgeCorvus, state: PfState, dice: Dice) -> Outcome[Event]:
    action = _checked(command, state)
    check = _check(command, state, dice)
    dc = check.target_number or 0
    margin = check.total - dc
    destroyed = bool(check.success) and margin >= DESTROY_MARGIN
    events: list[Event] = [ActionsSpent(creature_ids=(command.by,), action=action)]
    occupants: list[OccupantSave] = []
    if check.success:
        _, corvus = corvus_of(state, command.engine_id)
        events.append(
            CorvusChanged(engine_id=command.engine_id, deployed=False, needs_reset=corvus.needs_reset)
        )
        events += [EngineDestroyed(engine_id=command.engine_id)] if destroyed else []
        occupants, falls = _occupants_save(command, state, dice)
        events += falls
    result = CorvusDislodged(
        dc=dc,
        check=check,
        success=check.success,
        margin=margin,
        corvus_destroyed=destroyed,
        occupants=tuple(occupants),
    )
    return Outcome(result=result, events=tuple(events))


def _checked(command: DislodgeCorvus, state: PfState) -> ActionKind:
    """invalid_field, not_a_corvus, corvus_not_deployed, then the actor: full round (Strength) or standard."""
    strength = command.method == "strength"
    listed = command.occupant_ids
    if (command.driving_modifier is None) == (not strength) or len(set(listed)) != len(listed):
        raise Rejected("invalid_field")  # driving_modifier with driving only; occupants listed once
    engine, corvus = corvus_of(state, command.engine_id)
    if not corvus.deployed or engine.destroyed:
        raise Rejected("corvus_not_deployed")
    action: ActionKind = "full_round" if strength else "standard"
    actor_checks(state, creature(state, command.by), action)
    return action


def _check(command: DislodgeCorvus, state: PfState, dice: Dice) -> Check:
    """Strength (`str`) or driving (`driving`) against 15 + 5 per Small or Medium occupant."""
    occupants = [creature(state, c) for c in command.occupant_ids]
    dc = BASE_DC + PER_SMALL_OR_MEDIUM * sum(1 for o in occupants if o.size in ("S", "M"))
    if command.method == "strength":
        return strength_check(dice, creature(state, command.by), dc)
    return plain_check(dice, "check", mods(("driving", command.driving_modifier or 0)), dc)


def _occupants_save(
    command: DislodgeCorvus, state: PfState, dice: Dice
) -> tuple[list[OccupantSave], list[Event]]:
    """Each occupant saves Reflex DC 15 or gains `fallen`; saves drawn in creation order (PF-GEN-09)."""
    listed = set(command.occupant_ids)
    entries: list[OccupantSave] = []
    events: list[Event] = []
    for occupant in (c for c in state.creatures if c.id in listed):
        save = saving_throw(dice, occupant, "ref", FALL_DC)
        entries.append(OccupantSave(id=occupant.id, save=save, fell=not save.success))
        if not save.success:
            fallen = ConditionsAdded(entity_kind="creature", entity_id=occupant.id, conditions=("fallen",))
            events.append(fallen)
    return entries, events
