"""One `fire` (or `ram`) being resolved: its context read when the command starts, and its §3.13 report."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from rules.codec import JSON
from rules.pathfinder.catalog import EngineSpec
from rules.pathfinder.collapse import Fall
from rules.pathfinder.damage import DamageRoll, Effect
from rules.pathfinder.rolls import Check
from rules.pathfinder.state import Creature, Engine, PfState, Successive, Target
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
    landing: JSON = None
    damage: DamageRoll | None = None
    effects: tuple[Effect, ...] = ()
    per_target: tuple[JSON, ...] | None = None
    collapse: tuple[Fall, ...] = ()
    square_conditions: tuple[JSON, ...] = field(default_factory=tuple)
    successive: Successive | None = None  # the successive state after an indirect shot (PF-INDIRECT-05)

    def with_(self, **changes: object) -> Report:
        return replace(self, **changes)  # type: ignore[arg-type]

    def to_result(self, engine_after: JSON, sabotage: JSON) -> dict[str, JSON]:
        return {
            "kind": self.kind,
            "mode": self.mode,
            "roll": self.roll.to_wire() if self.roll else None,
            "threat": self.threat,
            "confirm": self.confirm.to_wire() if self.confirm else None,
            "critical_multiplier": self.critical_multiplier,
            "hit": self.hit,
            "mishap": self.mishap,
            "misfire": self.misfire,
            "exploded": self.exploded,
            "explode_before_launch": self.explode_before_launch,
            "landing": self.landing,
            "damage": self.damage.to_wire() if self.damage else None,
            "effects": [e.to_wire() for e in self.effects],
            "per_target": list(self.per_target) if self.per_target is not None else None,
            "collapse": [f.to_wire() for f in self.collapse],
            "square_conditions": list(self.square_conditions),
            "engine_after": engine_after,
            "sabotage": sabotage,
        }
