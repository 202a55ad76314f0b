"""What an engine may aim at and how far it reaches (PF-AIM-01, PF-AIM-05, PF-ENGINE-08)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.errors import Rejected
from rules.pathfinder.board import creature, engine, structure
from rules.pathfinder.catalog import EngineSpec
from rules.pathfinder.geometry import distance_ft
from rules.pathfinder.state import Creature, Engine, PfState, Square, Structure, Target

Mode = Literal["direct", "indirect", "area"]
AREA_FAMILIES = ("firedrake", "firewyrm")


def aim_mode(spec: EngineSpec, target: Target) -> Mode | None:
    """PF-AIM-01: the firing mode for that kind of target, None when the kind is wrong for the engine."""
    at_square = target.kind == "square"
    if spec.family in AREA_FAMILIES:
        return "area" if at_square else None
    if spec.family == "bombard":
        return "indirect" if at_square else "direct"
    if spec.fire_mode == "direct":
        return None if at_square else "direct"
    if spec.fire_mode == "indirect":
        return "indirect" if at_square else None
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class Range:
    distance_ft: int
    increment_ft: int | None
    increments: int | None
    penalty: int


def increment_ft(spec: EngineSpec, mode: Mode) -> int | None:
    """PF-ENGINE-08: a bombard in direct mode uses half its increment."""
    if spec.range_increment_ft is None:
        return None
    if spec.family == "bombard" and mode == "direct":
        return spec.range_increment_ft // 2
    return spec.range_increment_ft


def measure(spec: EngineSpec, mode: Mode, origin: Square, point: Square, max_increments: int) -> Range:
    """PF-AIM-05: increments = max(1, ceil(d / inc)), −2 per extra increment; illegal ranges rejected."""
    distance = distance_ft(origin, point)
    increment = increment_ft(spec, mode)
    if increment is None:
        return Range(distance_ft=distance, increment_ft=None, increments=None, penalty=0)
    minimum = None if (spec.family == "bombard" and mode == "direct") else spec.min_range_ft
    if minimum is not None and distance < minimum:
        raise Rejected("below_minimum_range")
    increments = max(1, -(-distance // increment))
    if increments > max_increments:
        raise Rejected("out_of_range")
    return Range(
        distance_ft=distance, increment_ft=increment, increments=increments, penalty=-2 * (increments - 1)
    )


def target_square(state: PfState, target: Target) -> Square:
    """Where a target stands: its entity's reference square, or the square itself."""
    if target.kind == "square" and target.square is not None:
        return target.square
    entity = _entity(state, target)
    return entity.position


def target_destroyed(state: PfState, target: Target) -> bool:
    """Engines and structures can be destroyed; creatures and squares cannot."""
    if target.kind in ("engine", "structure"):
        return bool(_entity(state, target).destroyed)  # type: ignore[union-attr]
    return False


def _entity(state: PfState, target: Target) -> Creature | Engine | Structure:
    ident = target.id or ""
    if target.kind == "creature":
        return creature(state, ident)
    if target.kind == "engine":
        return engine(state, ident)
    return structure(state, ident)
