"""Loading (PF-LOAD-01..03, PF-AMMO-01): `load`."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder.ammo import compatible
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.board import spec_of
from rules.pathfinder.checks import engine_checks
from rules.pathfinder.commands import Load
from rules.pathfinder.contributions import contribute
from rules.pathfinder.crew_status import load_requirement
from rules.pathfinder.events import Event, LoadProgressed
from rules.pathfinder.results import LoadProgress
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome


def load(command: Load, state: PfState, dice: Dice) -> Outcome[Event]:
    engine = get_engine(state, command.engine_id)
    spec = spec_of(engine)
    if not command.contributors:
        raise Rejected("invalid_field")
    engine_checks(state, engine)
    if not spec.is_ranged:
        raise Rejected("not_a_ranged_engine")
    if engine.loaded:
        raise Rejected("already_loaded")
    if command.ammunition is not None and not compatible(spec, command.ammunition):
        raise Rejected("incompatible_ammunition")
    # the first load of a cycle chooses the ammunition; later ones may only repeat it (PF-LOAD-03)
    cycle = engine.ammunition if engine.load_progress > 0 else None
    if cycle is not None and command.ammunition not in (None, cycle):
        raise Rejected("ammunition_mismatch")
    ammunition = cycle or command.ammunition or "standard"
    units, events = contribute(state, engine, command.contributors)
    requirement = load_requirement(state, engine) or 0
    if units > requirement - engine.load_progress:
        raise Rejected("exceeds_remaining")
    progress = engine.load_progress + units
    loaded = progress >= requirement
    result = LoadProgress(
        units_added=units,
        load_progress=progress,
        load_requirement=requirement,
        loaded=loaded,
        ammunition=ammunition,
    )
    event = LoadProgressed(engine_id=engine.id, ammunition=ammunition, load_progress=progress, loaded=loaded)
    return Outcome(result=result, events=(*events, event))
