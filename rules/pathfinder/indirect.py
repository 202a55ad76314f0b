"""Indirect fire (PF-INDIRECT-01..08, PF-SCATTER-04, PF-MISFIRE-04/05, PF-AMMO-10): targeting checks, where
the shot lands, successive shots and `observe`."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.frozen import replace
from rules.pathfinder import crit
from rules.pathfinder.ammo import EXPLODE_BEFORE_LAUNCH
from rules.pathfinder.board import creature, engine
from rules.pathfinder.commands import Observe
from rules.pathfinder.engine_stats import misfire_max
from rules.pathfinder.events import EngineBrokenByMishap, Event, SuccessiveChanged
from rules.pathfinder.feats import proficient
from rules.pathfinder.landing import land
from rules.pathfinder.misfire import explode, is_misfire
from rules.pathfinder.mishap import is_mishap
from rules.pathfinder.results import Observation
from rules.pathfinder.rolls import Label, Mod, attack, mods
from rules.pathfinder.scatter import Scatter, scatter
from rules.pathfinder.shot import Landing, Report, Shot
from rules.pathfinder.state import PfState, Successive
from rules.pathfinder.wind import wind_modifier
from rules.ruleset import Outcome

NO_LINE_OF_SIGHT = -6


def successive_terms(state: Successive) -> tuple[tuple[Label, int], ...]:
    """PF-INDIRECT-05: +10 after a hit; else 2 per seen miss (max 10) + reported misses (max 5; total 10)."""
    if state.hit:
        return (("successive_after_hit", 10),)
    seen = min(10, 2 * state.seen_misses)
    reported = min(5, state.reported_misses, 10 - seen)
    return ("successive_misses_seen", seen), ("successive_misses_reported", reported)


def targeting_modifiers(shot: Shot) -> tuple[Mod, ...]:
    """PF-INDIRECT-01, in the spec's order; zero terms are omitted."""
    leader, state = shot.leader, shot.state
    knowledge = leader.skills.knowledge_engineering
    ability: tuple[Label, int] = (
        ("knowledge_engineering", knowledge.modifier) if knowledge.ranks >= 1 else ("int", leader.int_mod)
    )
    assert shot.reach is not None
    return mods(
        ("bab", leader.bab),
        ability,
        ("enhancement", shot.enhancement),
        ("empower", shot.empower),
        ("nonproficient", 0 if proficient(leader, shot.spec) else -4),
        ("range", shot.reach.penalty),
        ("broken", -2 if shot.broken else 0),
        ("no_line_of_sight", 0 if shot.line_of_sight else NO_LINE_OF_SIGHT),
        *successive_terms(shot.engine.successive),
        ("wind", wind_modifier(state.wind)),
    )


def next_successive(before: Successive, hit: bool, seen: bool) -> Successive:
    if hit:
        return replace(before, hit=True)
    if seen:
        return replace(before, seen_misses=before.seen_misses + 1)
    return replace(before, unseen_misses=before.unseen_misses + 1)


def resolve_indirect(shot: Shot, dice: Dice) -> tuple[Report, list[Event]]:
    state, engine, spec = shot.state, shot.engine, shot.spec
    assert shot.target is not None and shot.target.square is not None and shot.reach is not None
    dc = engine.targeting_dc or 0
    modifiers = targeting_modifiers(shot)
    roll = attack(dice, "targeting", modifiers, dc)
    report = Report(kind="indirect", mode="indirect", roll=roll, successive=engine.successive)
    events: list[Event] = []
    rocket_misfire = spec.family == "springal_rocket" and roll.natural == 1  # PF-MISFIRE-04
    misfire = rocket_misfire or is_misfire(spec, roll.natural, misfire_max(state, engine))
    if misfire:
        report = report.with_(misfire=True)
        if rocket_misfire or shot.broken:
            return explode(shot, dice, report)
        events.append(EngineBrokenByMishap(engine_id=engine.id))
    mishap = is_mishap(spec, shot.leader, roll.natural)
    if mishap and not shot.broken:
        events.append(EngineBrokenByMishap(engine_id=engine.id))
    hit = bool(roll.success) and not misfire
    threat = (20, spec.critical_multiplier) if spec.critical_multiplier else None  # PF-CRIT-02
    critical = crit.resolve(dice, roll.natural, hit, threat, modifiers, dc)
    scattered: Scatter | None = None
    before_launch = mishap and shot.ammunition in EXPLODE_BEFORE_LAUNCH  # PF-AMMO-10
    if before_launch:
        square = engine.position
    elif hit:
        square = shot.target.square
    else:
        square, scattered = scatter(
            dice, shot.leader, shot.reach.increments or 1, engine.position, shot.target.square
        )
    landed = land(shot, dice, square, critical.multiplier)
    report = report.with_(
        mishap=mishap,
        hit=hit,
        threat=critical.threat,
        confirm=critical.confirm,
        critical_multiplier=critical.multiplier,
        explode_before_launch=before_launch,
        landing=Landing(square=square, scatter=scattered),
        damage=landed.damage,
        effects=landed.effects,
        collapse=landed.collapse,
        square_conditions=landed.square_conditions,
        successive=next_successive(engine.successive, hit, shot.crew_sees_landing),
    )
    return report, events + list(landed.events)


def observe(command: Observe, state: PfState, dice: Dice) -> Outcome[Event]:
    """PF-INDIRECT-06: a free action; every unseen miss becomes a reported one."""
    watched = engine(state, command.engine_id)
    if creature(state, command.observer_id).down:
        raise Rejected("creature_down")
    before = watched.successive
    if before.unseen_misses == 0:
        raise Rejected("nothing_to_report")
    after = replace(before, unseen_misses=0, reported_misses=before.reported_misses + before.unseen_misses)
    result = Observation(
        reported_now=before.unseen_misses,
        reported_misses=after.reported_misses,
        next_successive_modifier=sum(value for _, value in successive_terms(after)),
    )
    return Outcome(result=result, events=(SuccessiveChanged(engine_id=watched.id, successive=after),))
