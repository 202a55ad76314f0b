"""`fire` (§3.13): checks, then the direct, indirect, area or blast-shot resolution, then the spent load,
the leader's standard action (PF-TIME-05) and a sabotaged engine's failure (PF-DISABLE-02)."""

from __future__ import annotations

from functools import reduce

from rules.dice import Dice
from rules.pathfinder import sabotage
from rules.pathfinder.area import resolve_area
from rules.pathfinder.blast import resolve_blast
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.commands import Fire
from rules.pathfinder.direct import resolve_direct
from rules.pathfinder.engine_stats import misfire_max
from rules.pathfinder.events import ActionsSpent, Event, ShotFired
from rules.pathfinder.evolve import evolve
from rules.pathfinder.fire_checks import check_fields, checked_shot
from rules.pathfinder.indirect import resolve_indirect
from rules.pathfinder.shot import EngineAfter, Report, Shot
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome


def fire(command: Fire, state: PfState, dice: Dice) -> Outcome[Event]:
    engine = get_engine(state, command.engine_id)
    check_fields(command, engine)
    shot = checked_shot(command, state, engine)
    report, events = _resolve(shot, dice)
    events = [ActionsSpent(creature_ids=(shot.leader.id,), action="standard"), *events]
    events.append(ShotFired(engine_id=engine.id, successive=report.successive or engine.successive))
    after = reduce(evolve, events, state)
    sabotaged, more = sabotage.after_use(after, get_engine(after, engine.id), dice)
    events += more
    after = reduce(evolve, more, after)
    return Outcome(
        result=report.to_result(engine_after(after, engine.id), sabotaged),
        events=tuple(events),
        state=after,
    )


def _resolve(shot: Shot, dice: Dice) -> tuple[Report, list[Event]]:
    if shot.kind == "direct":
        return resolve_direct(shot, dice)
    if shot.kind == "indirect":
        return resolve_indirect(shot, dice)
    if shot.kind == "area":
        return resolve_area(shot, dice)
    return resolve_blast(shot, dice)


def engine_after(state: PfState, engine_id: str) -> EngineAfter:
    engine = get_engine(state, engine_id)
    return EngineAfter(
        loaded=engine.loaded,
        broken=engine.broken,
        misfire_max=misfire_max(state, engine),
        destroyed=engine.destroyed,
        successive=engine.successive,
    )
