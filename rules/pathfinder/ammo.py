"""Ammunition (PF-AMMO-01..11): compatibility, damage dice of a shot and the special ammunition effects."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.catalog import AMMUNITION, DiceExpr, EngineSpec
from rules.pathfinder.damage import Blow, DamageRoll
from rules.pathfinder.impact import Struck, material, within
from rules.pathfinder.rolls import SaveType, saving_throw
from rules.pathfinder.state import Creature, PfState, Square

SPECIAL_DAMAGE_FROM_CATALOG = ("standard", "plague_bundle", "blast_shot", "chain_shot")
EXPLODE_BEFORE_LAUNCH = ("alchemists_fire", "bomb", "liquid_ice", "smoke_shot")  # PF-AMMO-10
INNER_FT, OUTER_FT, AMMO_DC = 5, 30, 20


def compatible(spec: EngineSpec, ammunition: str) -> bool:
    """PF-AMMO-01: standard fits every ranged engine; special ammunition only the engines listing it."""
    return spec.is_ranged and ammunition in spec.ammunition_ids


def damage_dice(spec: EngineSpec, ammunition: str) -> DiceExpr | None:
    """§4 `damage`: the engine's dice, or the ammunition's own (none for the entangling bolt)."""
    if ammunition in SPECIAL_DAMAGE_FROM_CATALOG:
        return spec.damage
    kind = AMMUNITION.get(ammunition)
    return kind.damage if kind else None


def special_hits(
    state: PfState, ammunition: str, dice: Dice, square: Square, damage: DamageRoll
) -> list[tuple[Struck, Blow]]:
    """The entities special ammunition reaches from its landing square, with saves drawn in creation order."""
    if ammunition == "alchemists_fire":
        return _splash(state, dice, square, damage, "ref", "on_fire", objects="wood")
    if ammunition == "liquid_ice":
        return _splash(state, dice, square, damage, "fort", "entangled", objects=None)
    if ammunition == "bomb":  # PF-AMMO-03: no save, ignores wood and stone hardness
        return [
            (
                s,
                Blow(
                    zone=_zone(s, "area"),
                    distance_ft=s.distance_ft,
                    damage_in=_amount(s, damage),
                    ignore_hardness=material(s) in ("wood", "stone"),
                ),
            )
            for s in within(state, square, OUTER_FT)
        ]
    riders = {"plague_bundle": ("exposed_filth_fever",), "smoke_shot": ()}[ammunition]  # PF-AMMO-05/06
    return [
        (s, Blow(zone="target", distance_ft=0, damage_in=damage.total, conditions=riders))
        for s in within(state, square, 0)
        if isinstance(s.entity, Creature)
    ]


def _splash(
    state: PfState,
    dice: Dice,
    square: Square,
    damage: DamageRoll,
    save_type: SaveType,
    rider: str,
    objects: str | None,
) -> list[tuple[Struck, Blow]]:
    """PF-AMMO-02/04: within 5 ft full damage and a save against the rider; to 30 ft a save for half or 0."""
    hits: list[tuple[Struck, Blow]] = []
    for struck in within(state, square, OUTER_FT):
        inner = struck.distance_ft <= INNER_FT
        amount = _amount(struck, damage)
        zone = _zone(struck, "inner" if inner else "outer")
        if isinstance(struck.entity, Creature):
            save = saving_throw(dice, struck.entity, save_type, AMMO_DC)
            after = amount if inner else (0 if save.success else amount // 2)
            riders = (rider,) if inner and not save.success else ()
            hits.append(
                (
                    struck,
                    Blow(
                        zone=zone,
                        distance_ft=struck.distance_ft,
                        damage_in=amount,
                        save=save,
                        damage_after_save=after,
                        conditions=riders,
                    ),
                )
            )
        elif objects is not None and material(struck) == objects:
            hits.append(
                (
                    struck,
                    Blow(
                        zone=zone,
                        distance_ft=struck.distance_ft,
                        damage_in=amount if inner else amount // 2,
                        conditions=(rider,) if inner else (),
                        ignore_hardness=True,
                    ),
                )
            )
    return hits


def _zone(struck: Struck, beyond: str) -> str:
    return "target" if struck.distance_ft == 0 else beyond


def _amount(struck: Struck, damage: DamageRoll) -> int:
    """PF-CRIT-03: only the landing square takes a critical total."""
    return damage.total if struck.distance_ft == 0 else damage.base
