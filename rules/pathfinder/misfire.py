"""Misfires and explosions (PF-MISFIRE-01..05, PF-ENGINE-04): a firearm misfires on a low natural die; a
broken firearm, the rocket springal or a broken firedrake/firewyrm blows up instead of firing."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.catalog import EngineSpec
from rules.pathfinder.damage import Blow, roll_damage
from rules.pathfinder.events import EngineBrokenByMishap, EngineDestroyed, Event
from rules.pathfinder.impact import apply, within
from rules.pathfinder.rolls import saving_throw
from rules.pathfinder.shot import Report, Shot

FIREDRAKE_DC, EXPLOSION_DC = 15, 20


def is_misfire(spec: EngineSpec, natural: int, misfire_max: int | None) -> bool:
    """A siege firearm misfires when the natural is ≤ its misfire range (Siege Engineer does not help)."""
    return spec.is_siege_firearm and misfire_max is not None and natural <= misfire_max


def misfired(shot: Shot, dice: Dice, report: Report) -> tuple[Report, list[Event]]:
    """A direct misfire: it misses; a firearm already broken explodes, otherwise it becomes broken."""
    if shot.broken:
        return explode(shot, dice, report)
    return report, [EngineBrokenByMishap(engine_id=shot.engine.id)]


def explode(shot: Shot, dice: Dice, report: Report) -> tuple[Report, list[Event]]:
    """Catalog dice (no static modifiers) to every creature within the blast radius, Reflex for half."""
    spec, engine = shot.spec, shot.engine
    assert spec.damage is not None and spec.explosion_radius_ft is not None
    damage = roll_damage(dice, "explosion_damage", spec.damage, 0)
    dc = FIREDRAKE_DC if spec.family == "firedrake" else EXPLOSION_DC
    caught = [
        s for s in within(shot.state, engine.position, spec.explosion_radius_ft) if s.kind == "creature"
    ]
    hits = []
    for struck in caught:
        save = saving_throw(dice, struck.entity, "ref", dc, slot="explosion_reflex")  # type: ignore[arg-type]
        after = damage.total // 2 if save.success else damage.total
        hits.append(
            (
                struck,
                Blow(
                    zone="explosion",
                    distance_ft=struck.distance_ft,
                    damage_in=damage.total,
                    save=save,
                    damage_after_save=after,
                ),
            )
        )
    effects, events, falls = apply(shot.state, hits)
    events.append(EngineDestroyed(engine_id=engine.id))
    return report.with_(exploded=True, damage=damage, effects=tuple(effects), collapse=tuple(falls)), events
