"""Moving engines (PF-MOVE-01..06, PF-ENGINE-07): `move_engine` under the engine's own speed, as cargo
or carried by a vehicle."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder.board import crew_of, spec_of
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.checks import actors_check
from rules.pathfinder.commands import MoveEngine
from rules.pathfinder.crew_status import crew_status, equivalents
from rules.pathfinder.engine_stats import speed_ft
from rules.pathfinder.events import ActionsSpent, EngineMoved, Event
from rules.pathfinder.geometry import distance_ft
from rules.pathfinder.results import EngineRelocated
from rules.pathfinder.state import Engine, PfState
from rules.pathfinder.time import engine_busy
from rules.ruleset import Outcome


def move_engine(command: MoveEngine, state: PfState, dice: Dice) -> Outcome[Event]:
    engine = get_engine(state, command.engine_id)
    if engine.destroyed:
        raise Rejected("engine_destroyed")
    if command.carried:
        if not can_be_carried(engine):
            raise Rejected("cannot_be_carried")
        return _moved(engine, command, speed=None, events=[])
    if not engine.assembled:  # cargo (PF-MOVE-02): any distance, no crew, no actions
        return _moved(engine, command, speed=None, events=[])
    if engine_busy(state, engine):
        raise Rejected("engine_busy")
    _crew_can_move(state, engine)
    speed = None if immobile(engine) else speed_ft(state, engine)
    if speed is None:
        raise Rejected("immobile")
    crew = crew_of(state, engine)
    actors_check(state, crew, "move")
    if distance_ft(engine.position, command.to) > speed:
        raise Rejected("exceeds_speed")
    spent = ActionsSpent(creature_ids=tuple(c.id for c in crew), action="move")
    return _moved(engine, command, speed=speed, events=[spent] if crew else [])


def can_be_carried(engine: Engine) -> bool:
    """PF-MOVE-05, PF-ENGINE-07: trebuchets and the heavy bombard never travel on a vehicle."""
    spec = spec_of(engine)
    return spec.family != "trebuchet" and spec.id != "bombard_heavy"


def immobile(engine: Engine) -> bool:
    """PF-MOVE-02: catalog speed 0; an engine with no speed of its own (bridge, corvus) is immobile too."""
    spec = spec_of(engine)
    if spec.family == "ladder_escalade":  # its speed is its crew's (PF-MOVE-03)
        return False
    return not spec.speed_ft


def _crew_can_move(state: PfState, engine: Engine) -> None:
    """PF-MOVE-01, PF-CREW-04: a full crew, or a diminished one under the option or the gallery's rule."""
    status = crew_status(state, engine)
    if status is None:  # no crew status (assault bridges, PF-CREW-03)
        return
    if not engine.crew_ids:
        raise Rejected("no_crew")
    if status == "insufficient":
        raise Rejected("crew_insufficient")
    if status == "diminished" and not _diminished_may_move(state, engine):
        raise Rejected("crew_insufficient")


def _diminished_may_move(state: PfState, engine: Engine) -> bool:
    spec = spec_of(engine)
    if spec.family == "gallery":  # its own rule (PF-ASSAULT-08): at least half the crew
        return equivalents(state, engine) * 2 >= (spec.crew or 0)
    return state.options.diminished_crew_can_move


def _moved(engine: Engine, command: MoveEngine, *, speed: int | None, events: list[Event]) -> Outcome[Event]:
    """PF-MOVE-06: every move clears aim and successive-shot state (EngineMoved); loading is kept."""
    distance = distance_ft(engine.position, command.to)
    result = EngineRelocated(
        origin=engine.position, to=command.to, distance_ft=distance, speed_ft=speed, aim_reset=True
    )
    return Outcome(
        result=result,
        events=(*events, EngineMoved(engine_id=engine.id, position=command.to)),
    )
