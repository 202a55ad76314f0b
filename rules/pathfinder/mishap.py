"""Mishaps (PF-MISHAP-01/02, PF-FEAT-02) on the natural die; misfires, the firearms' own, are misfire.py's."""

from __future__ import annotations

from rules.pathfinder.catalog import EngineSpec
from rules.pathfinder.feats import SIEGE_ENGINEER
from rules.pathfinder.state import Creature


def is_mishap(spec: EngineSpec, leader: Creature, natural: int) -> bool:
    """A natural 1 on a non-firearm (not the rocket springal), unless the leader is a Siege Engineer."""
    if spec.is_siege_firearm or spec.family == "springal_rocket":
        return False
    return natural == 1 and not leader.has_feat(SIEGE_ENGINEER)
