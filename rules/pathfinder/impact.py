"""What a shot reaches and what it does there (PF-INDIRECT-07, PF-GEN-10, PF-STRUCT-06): the affected set is
fixed before any damage; results list creatures, then engines, then structures, each in creation order."""

from __future__ import annotations

from dataclasses import dataclass

from rules.pathfinder.board import creature, engine, spec_of, structure
from rules.pathfinder.collapse import Fall, collapse, reachable
from rules.pathfinder.damage import Blow, Effect, hit_creature, hit_engine, hit_structure
from rules.pathfinder.events import Event
from rules.pathfinder.geometry import distance_ft
from rules.pathfinder.state import Creature, Engine, EntityKind, PfState, Square, Structure, Target


@dataclass(frozen=True, slots=True, kw_only=True)
class Struck:
    kind: EntityKind
    entity: Creature | Engine | Structure
    distance_ft: int

    @property
    def wooden(self) -> bool:
        return material(self) == "wood"


def material(struck: Struck) -> str | None:
    """PF-AMMO-11: a structure's material; an engine's catalog material; creatures have none."""
    if isinstance(struck.entity, Structure):
        return struck.entity.material
    if isinstance(struck.entity, Engine):
        return spec_of(struck.entity).material
    return None


def within(state: PfState, centre: Square, radius_ft: int) -> list[Struck]:
    """Every creature, standing engine and reachable structure within the radius of the square."""
    # a square farther than this on either axis is out at once: the distance is at least 5 × the larger one
    x, y, reach = centre.x, centre.y, radius_ft // 5
    found: list[Struck] = []
    found += [
        Struck(kind="creature", entity=c, distance_ft=d)
        for c in state.creatures
        if abs(c.position.x - x) <= reach
        and abs(c.position.y - y) <= reach
        and (d := distance_ft(centre, c.position)) <= radius_ft
    ]
    found += [
        Struck(kind="engine", entity=e, distance_ft=d)
        for e in state.engines
        if not e.destroyed
        and abs(e.position.x - x) <= reach
        and abs(e.position.y - y) <= reach
        and (d := distance_ft(centre, e.position)) <= radius_ft
    ]
    found += [
        Struck(kind="structure", entity=s, distance_ft=d)
        for s in state.structures
        if abs(s.position.x - x) <= reach
        and abs(s.position.y - y) <= reach
        and reachable(state, s)
        and (d := distance_ft(centre, s.position)) <= radius_ft
    ]
    return found


def struck_target(state: PfState, target: Target, origin: Square) -> Struck:
    """A direct attack's target entity, with its distance from the engine."""
    ident = target.id or ""
    entity: Creature | Engine | Structure
    if target.kind == "creature":
        entity = creature(state, ident)
    elif target.kind == "engine":
        entity = engine(state, ident)
    else:
        entity = structure(state, ident)
    return Struck(kind=target.kind, entity=entity, distance_ft=distance_ft(origin, entity.position))  # type: ignore[arg-type]


def apply(state: PfState, hits: list[tuple[Struck, Blow]]) -> tuple[list[Effect], list[Event], list[Fall]]:
    """Apply each blow to the state as it was before the shot, then let destroyed wall squares collapse."""
    effects: list[Effect] = []
    events: list[Event] = []
    destroyed_walls: list[str] = []
    for struck, blow in hits:
        entity = struck.entity
        if isinstance(entity, Creature):
            effect, more = hit_creature(state, entity, blow)
        elif isinstance(entity, Engine):
            effect, more = hit_engine(state, entity, blow)
        else:
            effect, more = hit_structure(state, entity, blow)
            if "destroyed" in effect.conditions_added and entity.kind == "wall":
                destroyed_walls.append(entity.id)
        effects.append(effect)
        events += more
    falls, fall_events = collapse(state, destroyed_walls)
    return effects, events + fall_events, falls
