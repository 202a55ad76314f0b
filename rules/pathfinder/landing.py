"""What a landing indirect shot does (PF-INDIRECT-07/08, PF-ENGINE-05/06, PF-AMMO-01..06, PF-CRIT-03):
standard ammunition by engine family, special ammunition by its own rule."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import Dice
from rules.frozen import replace
from rules.pathfinder import ammo
from rules.pathfinder.collapse import Fall
from rules.pathfinder.damage import Blow, DamageRoll, Effect, roll_damage
from rules.pathfinder.events import Event, SquareConditionPlaced
from rules.pathfinder.impact import Struck, apply, within
from rules.pathfinder.rolls import saving_throw
from rules.pathfinder.shot import Shot
from rules.pathfinder.state import Creature, Square, SquareCondition

SPRINGAL_BURST_FT = 15
# PF-ENGINE-06: splash radius and Reflex DC
TREBUCHET_SPLASH = {"trebuchet_light": (5, 15), "trebuchet_standard": (15, 20), "trebuchet_heavy": (30, 25)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Landed:
    damage: DamageRoll | None
    effects: tuple[Effect, ...]
    collapse: tuple[Fall, ...]
    square_conditions: tuple[SquareCondition, ...]
    events: tuple[Event, ...]


def land(shot: Shot, dice: Dice, square: Square, multiplier: int) -> Landed:
    """Roll the damage (even on an empty square), then strike what the ammunition reaches."""
    expr = ammo.damage_dice(shot.spec, shot.ammunition)
    assert expr is not None
    damage = roll_damage(dice, "damage", expr, shot.static_damage, multiplier)
    if shot.ammunition == "plague_bundle":  # PF-AMMO-05: the halved value is the shot's damage
        damage = replace(damage, total=damage.total // 2, base=damage.base // 2)
    if shot.ammunition == "standard":
        hits = standard_hits(shot, dice, square, damage)
    else:
        hits = ammo.special_hits(shot.state, shot.ammunition, dice, square, damage)
    effects, events, falls = apply(shot.state, hits)
    conditions: tuple[SquareCondition, ...] = ()
    if shot.ammunition == "smoke_shot":  # PF-AMMO-06
        conditions = (SquareCondition(square=square, condition="fog_cloud"),)
        events.append(SquareConditionPlaced(square=square, condition="fog_cloud"))
    return Landed(
        damage=damage,
        effects=tuple(effects),
        collapse=tuple(falls),
        square_conditions=conditions,
        events=tuple(events),
    )


def standard_hits(shot: Shot, dice: Dice, square: Square, damage: DamageRoll) -> list[tuple[Struck, Blow]]:
    family = shot.spec.family
    if family in ("springal", "springal_rocket"):  # PF-ENGINE-05: burst, no save
        return [(s, _plain(s, damage)) for s in within(shot.state, square, SPRINGAL_BURST_FT)]
    if family == "trebuchet":
        return _trebuchet(shot, dice, square, damage)
    hits: list[tuple[Struck, Blow]] = []
    for struck in within(shot.state, square, 0):
        if family == "catapult" and isinstance(struck.entity, Creature):  # PF-INDIRECT-08
            dc = shot.engine.targeting_dc or 0
            save = saving_throw(dice, struck.entity, "ref", dc)
            after = damage.total // 2 if save.success else damage.total
            hits.append(
                (
                    struck,
                    Blow(
                        zone="target",
                        distance_ft=0,
                        damage_in=damage.total,
                        save=save,
                        damage_after_save=after,
                    ),
                )
            )
        else:
            hits.append((struck, _plain(struck, damage)))
    return hits


def _plain(struck: Struck, damage: DamageRoll) -> Blow:
    """The landing square takes the (critical) total; the rest of a burst the base (PF-CRIT-03)."""
    if struck.distance_ft == 0:
        return Blow(zone="target", distance_ft=0, damage_in=damage.total)
    return Blow(zone="burst", distance_ft=struck.distance_ft, damage_in=damage.base)


def _trebuchet(shot: Shot, dice: Dice, square: Square, damage: DamageRoll) -> list[tuple[Struck, Blow]]:
    """PF-ENGINE-06: full on the landing square; floor(base / 2) around it, a creature saving halves it."""
    radius, dc = TREBUCHET_SPLASH[shot.spec.id]
    hits: list[tuple[Struck, Blow]] = []
    for struck in within(shot.state, square, radius):
        if struck.distance_ft == 0:
            hits.append((struck, Blow(zone="target", distance_ft=0, damage_in=damage.total)))
            continue
        splash = damage.base // 2
        if isinstance(struck.entity, Creature):
            save = saving_throw(dice, struck.entity, "ref", dc)
            after = splash // 2 if save.success else splash
            blow = Blow(
                zone="splash",
                distance_ft=struck.distance_ft,
                damage_in=splash,
                save=save,
                damage_after_save=after,
            )
        else:
            blow = Blow(zone="splash", distance_ft=struck.distance_ft, damage_in=splash)
        hits.append((struck, blow))
    return hits
