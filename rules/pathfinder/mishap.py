"""Mishaps (PF-MISHAP-01/02, PF-FEAT-02) and misfires (PF-MISFIRE-01/02/05) on the natural die."""

from __future__ import annotations

from rules.pathfinder.catalog import EngineSpec
from rules.pathfinder.feats import SIEGE_ENGINEER
from rules.pathfinder.state import Creature


def is_mishap(spec: EngineSpec, leader: Creature, natural: int) -> bool:
    """A natural 1 on a non-firearm (not the rocket springal), unless the leader is a Siege Engineer."""
    if spec.is_siege_firearm or spec.family == "springal_rocket":
        return False
    return natural == 1 and not leader.has_feat(SIEGE_ENGINEER)


def is_misfire(spec: EngineSpec, natural: int, misfire_max: int | None) -> bool:
    """A siege firearm misfires when the natural is ≤ its misfire range (Siege Engineer does not help)."""
    return spec.is_siege_firearm and misfire_max is not None and natural <= misfire_max
