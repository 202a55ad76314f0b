"""Direct fire (PF-DIRECT-01..05, PF-ENGINE-08, PF-AMMO-08/09): the attack roll, cover and a hit's damage."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder import crit, misfire
from rules.pathfinder.board import find_engine, spec_of
from rules.pathfinder.crew_status import size_penalty_helpers
from rules.pathfinder.damage import Blow, roll_damage
from rules.pathfinder.engine_stats import misfire_max
from rules.pathfinder.events import EngineBrokenByMishap, Event
from rules.pathfinder.feats import SIEGE_GUNNER, proficient
from rules.pathfinder.impact import Struck, apply, struck_target
from rules.pathfinder.mishap import is_mishap
from rules.pathfinder.rolls import Mod, attack, mods, saving_throw
from rules.pathfinder.shot import Report, Shot
from rules.pathfinder.sizes import size_index, size_modifier
from rules.pathfinder.state import Creature, Engine, PfState, Structure
from rules.pathfinder.wind import wind_modifier

COVER, IMPROVED_COVER = 4, 8


def siege_size_penalty(state: PfState, engine: Engine, leader: Creature) -> int:
    """PF-DIRECT-02: −2 per size the engine exceeds the leader, offset +2 per helper, capped at 0."""
    base = -2 * max(0, size_index(engine.size) - size_index(leader.size))
    exempt = leader.skills.knowledge_engineering.ranks >= 1 or leader.has_feat(SIEGE_GUNNER)
    if exempt or (state.options.targeting_platform and engine.targeting_platform):
        return 0
    return min(0, base + 2 * size_penalty_helpers(state, engine))


def attack_modifiers(shot: Shot, range_penalty: int) -> tuple[Mod, ...]:
    """PF-DIRECT-01, in the spec's order; zero terms are omitted."""
    leader, state = shot.leader, shot.state
    return mods(
        ("bab", leader.bab),
        ("dex", leader.dex_mod),
        ("attacker_size", size_modifier(leader.size)),
        ("enhancement", shot.enhancement),
        ("empower", shot.empower),
        ("nonproficient", 0 if proficient(leader, shot.spec) else -4),
        ("siege_size_penalty", siege_size_penalty(state, shot.engine, leader)),
        ("range", range_penalty),
        ("broken", -2 if shot.broken else 0),
        ("bombard_direct", -4 if shot.spec.family == "bombard" else 0),
        ("wind", wind_modifier(state.wind)),
    )


def cover_bonus(state: PfState, target: Creature) -> int | None:
    """PF-DIRECT-04: cover +4, improved +8, None for total cover (cannot be attacked directly)."""
    host = find_engine(state, target.inside.engine_id) if target.inside else None
    if host is None or host.destroyed or target.inside is None:
        return 0
    family = spec_of(host).family
    if family == "siege_tower":
        return None if target.inside.level == "lower" else IMPROVED_COVER
    if family != "gallery":
        return 0
    smaller = size_index(host.size) - size_index(target.size)
    return {0: COVER, 1: IMPROVED_COVER}.get(smaller, 0 if smaller < 0 else None)


def armor_class(state: PfState, struck: Struck, touch: bool) -> int:
    entity = struck.entity
    if isinstance(entity, Creature):
        cover = cover_bonus(state, entity)
        if cover is None:
            raise Rejected("target_has_total_cover")
        return (entity.touch_ac if touch else entity.ac) + cover
    return entity.ac


def resolve_direct(shot: Shot, dice: Dice) -> tuple[Report, list[Event]]:
    """Attack; misfire or mishap on the natural; on a hit, critical, damage and the ammunition's rider."""
    state, engine = shot.state, shot.engine
    assert shot.target is not None and shot.reach is not None
    struck = struck_target(state, shot.target, engine.position)
    touch = shot.ammunition == "entangling_bolt"
    ac = armor_class(state, struck, touch)
    modifiers = attack_modifiers(shot, shot.reach.penalty)
    roll = attack(dice, "attack", modifiers, ac)
    report = Report(kind="direct", mode=shot.mode, roll=roll)
    if misfire.is_misfire(shot.spec, roll.natural, misfire_max(state, engine)):
        return misfire.misfired(shot, dice, report.with_(misfire=True))
    events: list[Event] = []
    if is_mishap(shot.spec, shot.leader, roll.natural):
        report = report.with_(mishap=True)
        events += [] if shot.broken else [EngineBrokenByMishap(engine_id=engine.id)]
    if not roll.success:
        return report, events
    return _hit(shot, dice, report.with_(hit=True), struck, modifiers, ac, events)


def _hit(
    shot: Shot,
    dice: Dice,
    report: Report,
    struck: Struck,
    modifiers: tuple[Mod, ...],
    ac: int,
    events: list[Event],
) -> tuple[Report, list[Event]]:
    if shot.ammunition == "entangling_bolt":  # PF-AMMO-09: no damage, no critical to multiply
        blow = Blow(zone="target", distance_ft=struck.distance_ft, damage_in=0, conditions=("entangled",))
        effects, more, falls = apply(shot.state, [(struck, blow)])
        return report.with_(effects=tuple(effects), collapse=tuple(falls)), events + more
    wooden = struck.entity if isinstance(struck.entity, Structure) else None
    assert report.roll is not None
    critical = crit.resolve(
        dice, report.roll.natural, True, crit.threat_range(shot.spec, wooden), modifiers, ac
    )
    expr = shot.spec.damage
    assert expr is not None
    damage = roll_damage(dice, "damage", expr, shot.static_damage, critical.multiplier)
    blow = Blow(zone="target", distance_ft=struck.distance_ft, damage_in=damage.total)
    if shot.ammunition == "chain_shot" and isinstance(struck.entity, Creature):  # PF-AMMO-08
        save = saving_throw(dice, struck.entity, "fort", 20)
        blow = Blow(
            zone="target",
            distance_ft=struck.distance_ft,
            damage_in=damage.total,
            save=save,
            damage_after_save=damage.total,
            conditions=() if save.success else ("prone",),
        )
    effects, more, falls = apply(shot.state, [(struck, blow)])
    report = report.with_(
        threat=critical.threat,
        confirm=critical.confirm,
        critical_multiplier=critical.multiplier,
        damage=damage,
        effects=tuple(effects),
        collapse=tuple(falls),
    )
    return report, events + more
