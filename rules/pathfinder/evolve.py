"""Apply one pathfinder event to the state: an exhaustive match, each case a small pure update."""

from __future__ import annotations

from typing import assert_never

from rules.frozen import replace, with_id
from rules.pathfinder import time
from rules.pathfinder.board import with_creature, with_engine, with_structure
from rules.pathfinder.events import (
    ActionsSpent,
    AimProgressed,
    AssemblyStarted,
    BridgeProgressed,
    ConditionsAdded,
    CorvusChanged,
    CreatureAdded,
    CreatureMoved,
    CreaturesBecameBusy,
    CrewAssigned,
    EffectScheduled,
    EngineBecameBusy,
    EngineBrokenByMishap,
    EngineDestroyed,
    EngineMoved,
    EnginePlaced,
    Event,
    GateOperated,
    HitPointsChanged,
    LoadProgressed,
    RoundsAdvanced,
    SabotageTriggered,
    ScheduledEffectCompleted,
    ShotFired,
    SpellCast,
    SquareConditionPlaced,
    StructureAdded,
    StructureFell,
    StructureStatusChanged,
    SuccessiveChanged,
    WindSet,
)
from rules.pathfinder.state import (
    Bridge,
    Corvus,
    Creature,
    PfState,
    Scheduled,
    SquareCondition,
    Successive,
)
from rules.pathfinder.updates import (
    add_conditions,
    assign_crew,
    complete_effect,
    destroy_engine,
    new_round,
    set_hp,
)


def evolve(state: PfState, event: Event) -> PfState:
    match event:
        case RoundsAdvanced():
            return new_round(state, event.round_after)
        case EffectScheduled():
            item = Scheduled(
                seq=state.next_seq,
                due_round=event.due_round,
                kind=event.kind,
                entity_id=event.entity_id,
                detail=event.detail,
            )
            return replace(state, schedule=(*state.schedule, item), next_seq=state.next_seq + 1)
        case ScheduledEffectCompleted():
            return complete_effect(state, event)
        case CreatureAdded():
            return replace(state, creatures=(*state.creatures, event.creature))
        case CreatureMoved():
            return with_creature(
                state, event.creature_id, lambda c: replace(c, position=event.position, inside=event.inside)
            )
        case EnginePlaced():
            return replace(state, engines=(*state.engines, event.engine))
        case StructureAdded():
            return replace(state, structures=(*state.structures, event.structure))
        case CrewAssigned():
            return assign_crew(state, event)
        case WindSet():
            return replace(state, wind=event.level)
        case ActionsSpent():
            return _spend(state, event)
        case CreaturesBecameBusy():
            creatures = state.creatures
            for busy in dict.fromkeys(event.creature_ids):
                creatures = with_id(creatures, busy, lambda c: replace(c, busy_until_round=event.until_round))
            return replace(state, creatures=creatures)
        case EngineBecameBusy():
            return with_engine(
                state, event.engine_id, lambda e: replace(e, busy_until_round=event.until_round)
            )
        case AssemblyStarted():
            return with_engine(
                state,
                event.engine_id,
                lambda e: replace(e, assembly_blocked_until_round=event.blocked_until_round),
            )
        case LoadProgressed():
            return with_engine(
                state,
                event.engine_id,
                lambda e: replace(
                    e, ammunition=event.ammunition, load_progress=event.load_progress, loaded=event.loaded
                ),
            )
        case AimProgressed():
            return with_engine(
                state,
                event.engine_id,
                lambda e: replace(
                    e,
                    aim_target=event.target,
                    aim_progress=event.aim_progress,
                    successive=Successive() if event.reset else e.successive,
                ),
            )
        case ShotFired():
            return with_engine(
                state,
                event.engine_id,
                lambda e: replace(
                    e, loaded=False, load_progress=0, ammunition=None, successive=event.successive
                ),
            )
        case EngineBrokenByMishap():
            return with_engine(state, event.engine_id, lambda e: replace(e, broken_by_mishap=True))
        case EngineDestroyed():
            return destroy_engine(state, event.engine_id)
        case EngineMoved():
            return with_engine(
                state,
                event.engine_id,
                lambda e: replace(
                    e, position=event.position, aim_target=None, aim_progress=0, successive=Successive()
                ),
            )
        case HitPointsChanged():
            return set_hp(state, event.entity_kind, event.entity_id, event.hp_after)
        case ConditionsAdded():
            return add_conditions(state, event.entity_kind, event.entity_id, event.conditions)
        case StructureStatusChanged():
            return with_structure(
                state,
                event.structure_id,
                lambda s: replace(s, broken=event.broken, breached=event.breached, destroyed=event.destroyed),
            )
        case StructureFell():
            return with_structure(
                state,
                event.structure_id,
                lambda s: replace(
                    s,
                    stacked_on=event.stacked_on,
                    hp=event.hp_after,
                    broken=event.broken,
                    breached=event.destroyed,  # a wall square is breached only once destroyed
                    destroyed=event.destroyed,
                ),
            )
        case SquareConditionPlaced():
            placed = SquareCondition(square=event.square, condition=event.condition)
            if placed in state.square_conditions:
                return state
            return replace(state, square_conditions=(*state.square_conditions, placed))
        case SabotageTriggered():
            return with_engine(state, event.engine_id, lambda e: replace(e, sabotage_triggered=True))
        case SpellCast():
            # a new cast replaces the previous one, and with it the pending expiry (PF-MAGIC-04)
            pending = tuple(
                s for s in state.schedule if not (s.kind == "spell_expiry" and s.entity_id == event.engine_id)
            )
            state = replace(state, schedule=pending)
            return with_engine(state, event.engine_id, lambda e: replace(e, spell=event.spell))
        case SuccessiveChanged():
            return with_engine(state, event.engine_id, lambda e: replace(e, successive=event.successive))
        case CorvusChanged():
            corvus = Corvus(deployed=event.deployed, needs_reset=event.needs_reset)
            return with_engine(state, event.engine_id, lambda e: replace(e, corvus=corvus))
        case BridgeProgressed():
            bridge = Bridge(
                progress_256ths=event.progress_256ths,
                raised=event.raised,
                contributors_this_round=event.contributors_this_round,
            )
            return with_engine(state, event.engine_id, lambda e: replace(e, bridge=bridge))
        case GateOperated():
            return with_structure(
                state,
                event.structure_id,
                lambda s: replace(
                    s,
                    gate_progress=event.gate_progress,
                    open=event.open,
                    gate_operators_this_round=event.operators_this_round,
                ),
            )
        case _:
            assert_never(event)


def _spend(state: PfState, event: ActionsSpent) -> PfState:
    def spent(c: Creature) -> Creature:
        return replace(c, actions=time.spend(c.actions, event.action, event.count))

    creatures = state.creatures
    for spender in dict.fromkeys(event.creature_ids):  # each spends once, however often it is listed
        creatures = with_id(creatures, spender, spent)
    return replace(state, creatures=creatures)
