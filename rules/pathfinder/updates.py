"""The longer state updates behind `evolve` (new rounds, completed effects, crews, damage, conditions), kept
apart so that evolve.py stays one match with a line or two per event."""

from __future__ import annotations

from rules.frozen import replace
from rules.pathfinder.board import with_creature, with_engine, with_structure
from rules.pathfinder.events import CrewAssigned, ScheduledEffectCompleted
from rules.pathfinder.scheduled import completion
from rules.pathfinder.state import Actions, Engine, EntityKind, PfState


def new_round(state: PfState, round_after: int) -> PfState:
    """PF-TIME-02: every budget is restored; per-round gate and bridge counters start again."""
    # only records that changed are rebuilt: a long battle folds thousands of rounds
    return replace(
        state,
        round=round_after,
        creatures=tuple(c if c.actions == FRESH else replace(c, actions=FRESH) for c in state.creatures),
        engines=tuple(_new_round_engine(e) for e in state.engines),
        structures=tuple(
            s if s.gate_operators_this_round == 0 else replace(s, gate_operators_this_round=0)
            for s in state.structures
        ),
    )


FRESH = Actions()


def _new_round_engine(engine: Engine) -> Engine:
    if engine.bridge is None or engine.bridge.contributors_this_round == 0:
        return engine
    return replace(engine, bridge=replace(engine.bridge, contributors_this_round=0))


def complete_effect(state: PfState, event: ScheduledEffectCompleted) -> PfState:
    """PF-TIME-03: apply a due effect (rules/pathfinder/scheduled.py) and drop it from the schedule."""
    state = replace(state, schedule=tuple(s for s in state.schedule if s.seq != event.seq))
    done = completion(event.kind, event.detail)
    if not done.sets:
        return state
    return with_engine(state, event.entity_id, lambda e: replace(e, **done.sets))


def assign_crew(state: PfState, event: CrewAssigned) -> PfState:
    """PF-CREW-01: the new crew replaces the old one, whose members are released."""
    crew = set(event.creature_ids)

    def crewing(creature_id: str, current: str | None) -> str | None:
        if creature_id in crew:
            return event.engine_id
        return None if current == event.engine_id else current

    state = replace(
        state, creatures=tuple(replace(c, crewing=crewing(c.id, c.crewing)) for c in state.creatures)
    )
    return with_engine(
        state, event.engine_id, lambda e: replace(e, crew_ids=event.creature_ids, leader_id=event.leader_id)
    )


def destroy_engine(state: PfState, engine_id: str) -> PfState:
    """PF-DEF-06: destroyed, and its crew released."""
    state = replace(
        state,
        creatures=tuple(replace(c, crewing=None) if c.crewing == engine_id else c for c in state.creatures),
    )
    return with_engine(state, engine_id, lambda e: replace(e, destroyed=True, crew_ids=(), leader_id=None))


def set_hp(state: PfState, kind: EntityKind, entity_id: str, hp: int) -> PfState:
    if kind == "creature":
        return with_creature(state, entity_id, lambda c: replace(c, hp=hp))
    if kind == "engine":
        return with_engine(state, entity_id, lambda e: replace(e, hp=hp))
    return with_structure(state, entity_id, lambda s: replace(s, hp=hp))


def add_conditions(state: PfState, kind: EntityKind, entity_id: str, conditions: tuple[str, ...]) -> PfState:
    def merged(current: tuple[str, ...]) -> tuple[str, ...]:
        return current + tuple(c for c in dict.fromkeys(conditions) if c not in current)

    if kind == "creature":
        return with_creature(state, entity_id, lambda c: replace(c, conditions=merged(c.conditions)))
    if kind == "engine":
        return with_engine(state, entity_id, lambda e: replace(e, conditions=merged(e.conditions)))
    return with_structure(state, entity_id, lambda s: replace(s, conditions=merged(s.conditions)))
