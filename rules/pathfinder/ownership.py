"""Who acts in a pathfinder command (DESIGN §4.9): creatures and engines belong to their `side` (spec §3.2,
§3.4); an entity without a side is the GM's alone."""

from __future__ import annotations

from typing import assert_never

from rules.pathfinder.commands import (
    AddCreature,
    AddStructure,
    AdvanceRound,
    Aim,
    Assemble,
    AssignCrew,
    Break,
    CastEngineSpell,
    Command,
    Crush,
    Disable,
    DislodgeCorvus,
    Fire,
    Load,
    MoveCreature,
    MoveEngine,
    Observe,
    OperateGate,
    PlaceEngine,
    RaiseBridge,
    Ram,
    Repair,
    SetWind,
    UseCorvus,
)
from rules.pathfinder.state import PfState

Actors = tuple[tuple[str, ...], tuple[str, ...]]  # (engine ids, creature ids) a command acts with


def acting_sides(command: Command, state: PfState) -> frozenset[str] | None:
    """The sides of the engines and creatures `command` acts with; None when only the GM may send it:
    the referee's commands (rounds, wind, structures), and any command that acts with a sideless entity.

    Targets (shot, rammed, crushed, sabotaged or repaired engines, a corvus being dislodged, gates and
    walls) are acted upon, not with; ids the state does not know count for no side."""
    if isinstance(command, AdvanceRound | SetWind | AddStructure):
        return None
    if isinstance(command, AddCreature | PlaceEngine):
        return None if command.side is None else frozenset({command.side})
    engine_ids, creature_ids = _actors(command)
    engines = {e.id: e.side for e in state.engines if e.id in engine_ids}
    creatures = {c.id: c.side for c in state.creatures if c.id in creature_ids}
    sides = [*engines.values(), *creatures.values()]
    if any(side is None for side in sides):
        return None
    return frozenset(side for side in sides if side is not None)


def _actors(command: Command) -> Actors:
    match command:
        case AdvanceRound() | SetWind() | AddStructure() | AddCreature() | PlaceEngine():
            return (), ()
        case MoveCreature(creature_id=creature_id):
            return (), (creature_id,)
        case AssignCrew(engine_id=engine_id, creature_ids=crew, leader_id=leader):
            return (engine_id,), (*crew, leader)
        case Assemble(engine_id=engine_id, worker_ids=workers, leader_id=leader):
            return (engine_id,), (*workers, *_given(leader))
        case Load(engine_id=engine_id, contributors=helpers) | Aim(engine_id=engine_id, contributors=helpers):
            return (engine_id,), tuple(helper.creature_id for helper in helpers)
        case Observe(engine_id=engine_id, observer_id=observer_id):
            return (engine_id,), (observer_id,)
        case RaiseBridge(engine_id=engine_id, contributors=helpers):
            return (engine_id,), helpers
        case CastEngineSpell(engine_id=e) | MoveEngine(engine_id=e) | Fire(engine_id=e) | Ram(engine_id=e):
            return (e,), ()
        case UseCorvus(engine_id=engine_id) | Crush(engine_id=engine_id):
            return (engine_id,), ()
        case Repair(by=by) | Disable(by=by) | DislodgeCorvus(by=by):
            return (), (by,)
        case Break(engine_id=engine_id, by=by):
            return _given(engine_id), _given(by)
        case OperateGate(contributors=helpers):
            return (), helpers
        case _:
            assert_never(command)


def _given(entity_id: str | None) -> tuple[str, ...]:
    return () if entity_id is None else (entity_id,)
