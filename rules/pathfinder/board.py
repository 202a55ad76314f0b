"""Finding and replacing entities in the state's ordered tuples."""

from __future__ import annotations

from collections.abc import Callable

from rules.frozen import by_id, replace, with_id
from rules.pathfinder.catalog import EngineSpec, engine_spec
from rules.pathfinder.state import Creature, Engine, EntityKind, PfState, Square, Structure


def find_creature(state: PfState, creature_id: str) -> Creature | None:
    return by_id(state.creatures, creature_id)


def find_engine(state: PfState, engine_id: str) -> Engine | None:
    return by_id(state.engines, engine_id)


def find_structure(state: PfState, structure_id: str) -> Structure | None:
    return by_id(state.structures, structure_id)


def creature(state: PfState, creature_id: str) -> Creature:
    """A creature the common checks already proved to exist."""
    found = find_creature(state, creature_id)
    if found is None:
        raise KeyError(creature_id)
    return found


def engine(state: PfState, engine_id: str) -> Engine:
    found = find_engine(state, engine_id)
    if found is None:
        raise KeyError(engine_id)
    return found


def structure(state: PfState, structure_id: str) -> Structure:
    found = find_structure(state, structure_id)
    if found is None:
        raise KeyError(structure_id)
    return found


def kind_of(state: PfState, entity_id: str) -> EntityKind | None:
    if find_creature(state, entity_id) is not None:
        return "creature"
    if find_engine(state, entity_id) is not None:
        return "engine"
    if find_structure(state, entity_id) is not None:
        return "structure"
    return None


def position_of(state: PfState, entity_id: str) -> Square:
    for group in (state.creatures, state.engines, state.structures):
        for entity in group:
            if entity.id == entity_id:
                return entity.position
    raise KeyError(entity_id)


def spec_of(an_engine: Engine) -> EngineSpec:
    return engine_spec(an_engine.catalog_id)


def crew_of(state: PfState, an_engine: Engine) -> list[Creature]:
    """The crew in assignment order (the leader wherever it was listed)."""
    return [creature(state, cid) for cid in an_engine.crew_ids]


def leader_of(state: PfState, an_engine: Engine) -> Creature | None:
    return find_creature(state, an_engine.leader_id) if an_engine.leader_id else None


def with_creature(state: PfState, creature_id: str, change: Callable[[Creature], Creature]) -> PfState:
    return replace(state, creatures=with_id(state.creatures, creature_id, change))


def with_engine(state: PfState, engine_id: str, change: Callable[[Engine], Engine]) -> PfState:
    return replace(state, engines=with_id(state.engines, engine_id, change))


def with_structure(state: PfState, structure_id: str, change: Callable[[Structure], Structure]) -> PfState:
    return replace(state, structures=with_id(state.structures, structure_id, change))
