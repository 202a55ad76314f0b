"""Cannon blast shot (PF-AMMO-07): one attack per listed target, each with its own critical and damage; it
misfires only when every attack misses and one natural lies in the misfire range."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder import crit, misfire
from rules.pathfinder.board import kind_of
from rules.pathfinder.damage import Blow, Effect, roll_damage
from rules.pathfinder.direct import armor_class, attack_modifiers
from rules.pathfinder.engine_stats import misfire_max
from rules.pathfinder.events import Event
from rules.pathfinder.impact import apply, struck_target
from rules.pathfinder.rolls import attack
from rules.pathfinder.shot import BlastTarget, Report, Shot
from rules.pathfinder.state import Structure, Target
from rules.pathfinder.targeting import measure


def resolve_blast(shot: Shot, dice: Dice) -> tuple[Report, list[Event]]:
    state, engine = shot.state, shot.engine
    limit = misfire_max(state, engine) or 0
    per_target: list[BlastTarget] = []
    effects: list[Effect] = []
    events: list[Event] = []
    naturals: list[int] = []
    for ident in shot.target_ids:
        target = Target(kind=kind_of(state, ident) or "creature", id=ident)
        struck = struck_target(state, target, engine.position)
        reach = measure(
            shot.spec, "direct", engine.position, struck.entity.position, state.options.max_range_increments
        )
        modifiers = attack_modifiers(shot, reach.penalty)
        ac = armor_class(state, struck, touch=False)
        roll = attack(dice, "attack", modifiers, ac)
        naturals.append(roll.natural)
        if not roll.success:
            per_target.append(BlastTarget(target_id=ident, roll=roll, hit=False))
            continue
        wooden = struck.entity if isinstance(struck.entity, Structure) else None
        critical = crit.resolve(dice, roll.natural, True, crit.threat_range(shot.spec, wooden), modifiers, ac)
        assert shot.spec.damage is not None
        damage = roll_damage(dice, "damage", shot.spec.damage, shot.static_damage, critical.multiplier)
        hit_effects, more, _ = apply(
            state, [(struck, Blow(zone="target", distance_ft=struck.distance_ft, damage_in=damage.total))]
        )
        per_target.append(
            BlastTarget(
                target_id=ident,
                roll=roll,
                threat=critical.threat,
                confirm=critical.confirm,
                critical_multiplier=critical.multiplier,
                hit=True,
                damage=damage,
                effects=tuple(hit_effects),
            )
        )
        effects += hit_effects
        events += more
    any_hit = any(entry.hit for entry in per_target)
    report = Report(
        kind="blast_shot", mode="direct", hit=any_hit, effects=tuple(effects), per_target=tuple(per_target)
    )
    if not any_hit and any(n <= limit for n in naturals):
        explosion, more = misfire.misfired(shot, dice, report.with_(misfire=True))
        return explosion.with_(effects=report.effects + explosion.effects), events + more
    return report, events
