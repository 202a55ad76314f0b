"""Aiming (PF-AIM-01..05, PF-ENGINE-08, PF-CREW-05): `aim`."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.board import spec_of
from rules.pathfinder.checks import engine_checks
from rules.pathfinder.commands import Aim
from rules.pathfinder.contributions import contribute
from rules.pathfinder.crew_status import aim_requirement
from rules.pathfinder.events import AimProgressed, Event
from rules.pathfinder.results import AimProgress, target_of
from rules.pathfinder.state import PfState
from rules.pathfinder.targeting import aim_mode, measure, target_destroyed, target_square
from rules.ruleset import Outcome


def aim(command: Aim, state: PfState, dice: Dice) -> Outcome[Event]:
    engine = get_engine(state, command.engine_id)
    spec = spec_of(engine)
    engine_checks(state, engine)
    if not spec.is_ranged:
        raise Rejected("not_a_ranged_engine")
    requirement = aim_requirement(state, engine) or 0
    if requirement == 0:
        raise Rejected("no_aim_needed")
    mode = aim_mode(spec, command.target)
    if mode is None:
        raise Rejected("target_kind_invalid")
    if target_destroyed(state, command.target):
        raise Rejected("target_destroyed")
    reach = measure(
        spec, mode, engine.position, target_square(state, command.target), state.options.max_range_increments
    )
    reset = command.target != engine.aim_target
    progress = 0 if reset else engine.aim_progress
    if not reset and progress >= requirement:
        raise Rejected("already_aimed")
    units, events = contribute(state, engine, command.contributors)
    if units > requirement - progress:
        raise Rejected("exceeds_remaining")
    progress += units
    result = AimProgress(
        aim_target=target_of(command.target),
        mode=mode,
        range=reach,
        aim_progress=progress,
        aim_requirement=requirement,
        aimed=progress >= requirement,
        reset=reset,
    )
    event = AimProgressed(engine_id=engine.id, target=command.target, aim_progress=progress, reset=reset)
    return Outcome(result=result, events=(*events, event))
