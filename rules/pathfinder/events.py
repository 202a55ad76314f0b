"""What happened in a pathfinder battle: past-tense facts that `evolve` applies to the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.events import event
from rules.pathfinder.state import (
    Creature,
    Engine,
    EngineSpell,
    EntityKind,
    Inside,
    ScheduledKind,
    Square,
    Structure,
    Successive,
    Target,
    Wind,
)

ActionKind = Literal["standard", "move", "full_round"]


@event("RoundsAdvanced")
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundsAdvanced:
    round_before: int
    round_after: int


@event("EffectScheduled")
@dataclass(frozen=True, slots=True, kw_only=True)
class EffectScheduled:
    kind: ScheduledKind
    due_round: int
    entity_id: str
    detail: str | None = None


@event("ScheduledEffectCompleted")
@dataclass(frozen=True, slots=True, kw_only=True)
class ScheduledEffectCompleted:
    seq: int
    kind: ScheduledKind
    entity_id: str
    detail: str | None = None


@event("CreatureAdded")
@dataclass(frozen=True, slots=True, kw_only=True)
class CreatureAdded:
    creature: Creature


@event("CreatureMoved")
@dataclass(frozen=True, slots=True, kw_only=True)
class CreatureMoved:
    creature_id: str
    position: Square
    inside: Inside | None


@event("EnginePlaced")
@dataclass(frozen=True, slots=True, kw_only=True)
class EnginePlaced:
    engine: Engine


@event("StructureAdded")
@dataclass(frozen=True, slots=True, kw_only=True)
class StructureAdded:
    structure: Structure


@event("CrewAssigned")
@dataclass(frozen=True, slots=True, kw_only=True)
class CrewAssigned:
    engine_id: str
    creature_ids: tuple[str, ...]
    leader_id: str


@event("WindSet")
@dataclass(frozen=True, slots=True, kw_only=True)
class WindSet:
    level: Wind


@event("ActionsSpent")
@dataclass(frozen=True, slots=True, kw_only=True)
class ActionsSpent:
    """Each creature spends `count` actions of `action` kind (a move falls back on the standard action)."""

    creature_ids: tuple[str, ...]
    action: ActionKind
    count: int = 1


@event("CreaturesBecameBusy")
@dataclass(frozen=True, slots=True, kw_only=True)
class CreaturesBecameBusy:
    creature_ids: tuple[str, ...]
    until_round: int


@event("EngineBecameBusy")
@dataclass(frozen=True, slots=True, kw_only=True)
class EngineBecameBusy:
    engine_id: str
    until_round: int


@event("AssemblyStarted")
@dataclass(frozen=True, slots=True, kw_only=True)
class AssemblyStarted:
    engine_id: str
    blocked_until_round: int


@event("LoadProgressed")
@dataclass(frozen=True, slots=True, kw_only=True)
class LoadProgressed:
    engine_id: str
    ammunition: str
    load_progress: int
    loaded: bool


@event("AimProgressed")
@dataclass(frozen=True, slots=True, kw_only=True)
class AimProgressed:
    """`reset` clears the successive-shot state (new target, PF-AIM-04)."""

    engine_id: str
    target: Target
    aim_progress: int
    reset: bool


@event("ShotFired")
@dataclass(frozen=True, slots=True, kw_only=True)
class ShotFired:
    """The load is spent (PF-LOAD-04) and the successive-shot state is now `successive`."""

    engine_id: str
    successive: Successive


@event("EngineBrokenByMishap")
@dataclass(frozen=True, slots=True, kw_only=True)
class EngineBrokenByMishap:
    engine_id: str


@event("EngineDestroyed")
@dataclass(frozen=True, slots=True, kw_only=True)
class EngineDestroyed:
    """PF-DEF-06: the engine is destroyed and its crew released."""

    engine_id: str


@event("EngineMoved")
@dataclass(frozen=True, slots=True, kw_only=True)
class EngineMoved:
    """PF-MOVE-06: any move clears aim and successive state; loading is kept."""

    engine_id: str
    position: Square


@event("HitPointsChanged")
@dataclass(frozen=True, slots=True, kw_only=True)
class HitPointsChanged:
    entity_kind: EntityKind
    entity_id: str
    hp_after: int


@event("ConditionsAdded")
@dataclass(frozen=True, slots=True, kw_only=True)
class ConditionsAdded:
    entity_kind: EntityKind
    entity_id: str
    conditions: tuple[str, ...]


@event("StructureStatusChanged")
@dataclass(frozen=True, slots=True, kw_only=True)
class StructureStatusChanged:
    structure_id: str
    broken: bool
    breached: bool
    destroyed: bool


@event("StructureFell")
@dataclass(frozen=True, slots=True, kw_only=True)
class StructureFell:
    """PF-STRUCT-06: a wall square dropped into the gap below and now rests on `stacked_on`."""

    structure_id: str
    stacked_on: str | None
    hp_after: int
    broken: bool
    destroyed: bool


@event("SquareConditionPlaced")
@dataclass(frozen=True, slots=True, kw_only=True)
class SquareConditionPlaced:
    square: Square
    condition: str


@event("SabotageTriggered")
@dataclass(frozen=True, slots=True, kw_only=True)
class SabotageTriggered:
    engine_id: str


@event("SpellCast")
@dataclass(frozen=True, slots=True, kw_only=True)
class SpellCast:
    engine_id: str
    spell: EngineSpell


@event("SuccessiveChanged")
@dataclass(frozen=True, slots=True, kw_only=True)
class SuccessiveChanged:
    engine_id: str
    successive: Successive


@event("CorvusChanged")
@dataclass(frozen=True, slots=True, kw_only=True)
class CorvusChanged:
    engine_id: str
    deployed: bool
    needs_reset: bool


@event("BridgeProgressed")
@dataclass(frozen=True, slots=True, kw_only=True)
class BridgeProgressed:
    engine_id: str
    progress_256ths: int
    raised: bool
    contributors_this_round: int


@event("GateOperated")
@dataclass(frozen=True, slots=True, kw_only=True)
class GateOperated:
    structure_id: str
    gate_progress: int
    open: bool
    operators_this_round: int


Event = (
    RoundsAdvanced
    | EffectScheduled
    | ScheduledEffectCompleted
    | CreatureAdded
    | CreatureMoved
    | EnginePlaced
    | StructureAdded
    | CrewAssigned
    | WindSet
    | ActionsSpent
    | CreaturesBecameBusy
    | EngineBecameBusy
    | AssemblyStarted
    | LoadProgressed
    | AimProgressed
    | ShotFired
    | EngineBrokenByMishap
    | EngineDestroyed
    | EngineMoved
    | HitPointsChanged
    | ConditionsAdded
    | StructureStatusChanged
    | StructureFell
    | SquareConditionPlaced
    | SabotageTriggered
    | SpellCast
    | SuccessiveChanged
    | CorvusChanged
    | BridgeProgressed
    | GateOperated
)
