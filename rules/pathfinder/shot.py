"""One `fire` (or `ram`) being resolved: its context read when the command starts, and its §3.13 report
(`Report` while it is resolved, `ShotResolved` the result record the codec writes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.frozen import replace
from rules.pathfinder.catalog import EngineSpec
from rules.pathfinder.collapse import Fall
from rules.pathfinder.damage import DamageRoll, Effect
from rules.pathfinder.results import SabotageDrawn
from rules.pathfinder.rolls import Check
from rules.pathfinder.scatter import Scatter
from rules.pathfinder.state import Creature, Engine, PfState, Square, SquareCondition, Successive, Target
from rules.pathfinder.targeting import Mode, Range

ShotKind = Literal["direct", "indirect", "area", "blast_shot", "ram"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Shot:
    """Everything PF-DEF-05 says is read at the start: a shot that breaks its engine keeps its totals."""

    state: PfState
    engine: Engine
    spec: EngineSpec
    leader: Creature
    kind: ShotKind
    mode: Mode
    target: Target | None
    reach: Range | None
    ammunition: str
    broken: bool
    enhancement: int
    empower: int
    line_of_sight: bool = True
    crew_sees_landing: bool = True
    target_ids: tuple[str, ...] = ()  # the gout's creatures or the blast shot's targets, as listed

    @property
    def static_damage(self) -> int:
        """PF-DIRECT-05, PF-MAGIC-03/05, PF-DEF-05: enhancement + 3N empower − 2 broken."""
        return self.enhancement + 3 * self.empower - (2 if self.broken else 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class Landing:
    square: Square
    scatter: Scatter | None


@dataclass(frozen=True, slots=True, kw_only=True)
class BlastTarget:
    """One listed target of a blast shot (PF-AMMO-07), each with its own attack, critical and damage."""

    target_id: str
    roll: Check
    threat: bool = False
    confirm: Check | None = None
    critical_multiplier: int = 1
    hit: bool
    damage: DamageRoll | None = None
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineAfter:
    loaded: bool
    broken: bool
    misfire_max: int | None
    destroyed: bool
    successive: Successive


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotResolved:
    """§3.13 `fire` and §3.17 `ram`: null where a field does not apply, [] for empty lists."""

    kind: ShotKind
    mode: Mode
    roll: Check | None
    threat: bool
    confirm: Check | None
    critical_multiplier: int
    hit: bool
    mishap: bool
    misfire: bool
    exploded: bool
    explode_before_launch: bool
    landing: Landing | None
    damage: DamageRoll | None
    effects: tuple[Effect, ...]
    per_target: tuple[BlastTarget, ...] | None
    collapse: tuple[Fall, ...]
    square_conditions: tuple[SquareCondition, ...]
    engine_after: EngineAfter
    sabotage: SabotageDrawn | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    """The outcome fields of `fire` (and `ram`): null where they do not apply, [] for empty lists."""

    kind: ShotKind
    mode: Mode
    roll: Check | None = None
    threat: bool = False
    confirm: Check | None = None
    critical_multiplier: int = 1
    hit: bool = False
    mishap: bool = False
    misfire: bool = False
    exploded: bool = False
    explode_before_launch: bool = False
    landing: Landing | None = None
    damage: DamageRoll | None = None
    effects: tuple[Effect, ...] = ()
    per_target: tuple[BlastTarget, ...] | None = None
    collapse: tuple[Fall, ...] = ()
    square_conditions: tuple[SquareCondition, ...] = field(default_factory=tuple)
    successive: Successive | None = None  # the successive state after an indirect shot (PF-INDIRECT-05)

    def with_(self, **changes: object) -> Report:
        return replace(self, **changes)  # type: ignore[arg-type]

    def to_result(self, engine_after: EngineAfter, sabotage: SabotageDrawn | None) -> ShotResolved:
        return ShotResolved(
            kind=self.kind,
            mode=self.mode,
            roll=self.roll,
            threat=self.threat,
            confirm=self.confirm,
            critical_multiplier=self.critical_multiplier,
            hit=self.hit,
            mishap=self.mishap,
            misfire=self.misfire,
            exploded=self.exploded,
            explode_before_launch=self.explode_before_launch,
            landing=self.landing,
            damage=self.damage,
            effects=self.effects,
            per_target=self.per_target,
            collapse=self.collapse,
            square_conditions=self.square_conditions,
            engine_after=engine_after,
            sabotage=sabotage,
        )
