"""Ammunition (PF-AMMO-01..11): compatibility, the damage dice of a shot and the special effects."""

from __future__ import annotations

from rules.pathfinder.catalog import AMMUNITION, DiceExpr, EngineSpec

SPECIAL_DAMAGE_FROM_CATALOG = ("standard", "plague_bundle", "blast_shot", "chain_shot")
EXPLODE_BEFORE_LAUNCH = ("alchemists_fire", "bomb", "liquid_ice", "smoke_shot")  # PF-AMMO-10


def compatible(spec: EngineSpec, ammunition: str) -> bool:
    """PF-AMMO-01: standard fits every ranged engine; special ammunition only the engines listing it."""
    return spec.is_ranged and ammunition in spec.ammunition_ids


def damage_dice(spec: EngineSpec, ammunition: str) -> DiceExpr | None:
    """§4 `damage`: the engine's dice, or the ammunition's own (none for the entangling bolt)."""
    if ammunition in SPECIAL_DAMAGE_FROM_CATALOG:
        return spec.damage
    kind = AMMUNITION.get(ammunition)
    return kind.damage if kind else None
