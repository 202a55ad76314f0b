"""Firedrake and firewyrm gouts (PF-ENGINE-03/04, PF-MISHAP-03): operation check, then one damage roll for
every listed creature, each saving for half."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.damage import Blow, roll_damage
from rules.pathfinder.events import EngineBrokenByMishap, Event
from rules.pathfinder.impact import apply, struck_target
from rules.pathfinder.misfire import explode
from rules.pathfinder.mishap import is_mishap
from rules.pathfinder.rolls import Check, saving_throw
from rules.pathfinder.shot import Report, Shot
from rules.pathfinder.state import Target

GOUT_DC = {"firedrake": 15, "firewyrm": 20}


def resolve_area(shot: Shot, dice: Dice) -> tuple[Report, list[Event]]:
    natural = dice.one("operation", 20)
    roll = Check(slot="operation", natural=natural, modifiers=(), target_number=None, success=None)
    report = Report(kind="area", mode="area", roll=roll)
    if is_mishap(shot.spec, shot.leader, natural):
        report = report.with_(mishap=True)
        if shot.broken:
            return explode(shot, dice, report)
        return report, [EngineBrokenByMishap(engine_id=shot.engine.id)]  # the gout is not fired
    assert shot.spec.damage is not None
    damage = roll_damage(dice, "damage", shot.spec.damage, shot.static_damage)
    listed = set(shot.target_ids)
    victims = [c for c in shot.state.creatures if c.id in listed]  # saves in creation order (PF-GEN-09)
    hits = []
    for victim in victims:
        struck = struck_target(shot.state, Target(kind="creature", id=victim.id), shot.engine.position)
        save = saving_throw(dice, victim, "ref", GOUT_DC[shot.spec.family])
        after = damage.total // 2 if save.success else damage.total
        riders = () if save.success else ("on_fire",)
        hits.append(
            (
                struck,
                Blow(
                    zone="area",
                    distance_ft=struck.distance_ft,
                    damage_in=damage.total,
                    save=save,
                    damage_after_save=after,
                    conditions=riders,
                ),
            )
        )
    effects, events, falls = apply(shot.state, hits)
    return report.with_(hit=True, damage=damage, effects=tuple(effects), collapse=tuple(falls)), events
