"""`ram` (§3.17, PF-ASSAULT-01..03): a melee attack by the crew leader, resolved with the fire pipeline's
attack roll, critical, damage, impact and report, and spending every crew member's full-round action."""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder import crit, sabotage
from rules.pathfinder.board import crew_of, leader_of, spec_of
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.checks import actors_check, engine_checks
from rules.pathfinder.commands import Ram
from rules.pathfinder.damage import Blow, roll_damage
from rules.pathfinder.direct import armor_class
from rules.pathfinder.events import ActionsSpent, EngineBrokenByMishap, Event
from rules.pathfinder.evolve import evolve
from rules.pathfinder.fire import engine_after
from rules.pathfinder.impact import Struck, apply, struck_target
from rules.pathfinder.mishap import is_mishap
from rules.pathfinder.ram_bonuses import attack_terms, damage_static
from rules.pathfinder.rolls import Mod, attack
from rules.pathfinder.shot import Report
from rules.pathfinder.state import Creature, Engine, PfState, Structure
from rules.pathfinder.targeting import target_destroyed
from rules.ruleset import Outcome


@dataclass(frozen=True, slots=True, kw_only=True)
class Charge:
    """One ram attack as read when the command starts (PF-DEF-05: a mishap now does not change it)."""

    state: PfState
    engine: Engine
    leader: Creature
    struck: Struck
    ac: int
    charging: bool

    @property
    def structure(self) -> Structure | None:
        """The structure rammed, if any: the ram head and the gate breaker's wood rule look at it."""
        return self.struck.entity if isinstance(self.struck.entity, Structure) else None


def ram(command: Ram, state: PfState, dice: Dice) -> Outcome[Event]:
    engine = get_engine(state, command.engine_id)
    charge = _checked(command, state, engine)
    report, events = _resolve(charge, dice)
    events = [ActionsSpent(creature_ids=engine.crew_ids, action="full_round"), *events]
    after = reduce(evolve, events, state)
    sabotaged, more = sabotage.after_use(after, get_engine(after, engine.id), dice)
    after = reduce(evolve, more, after)
    return Outcome(
        result=report.to_result(engine_after(after, engine.id), sabotaged),
        events=(*events, *more),
        state=after,
    )


def _checked(command: Ram, state: PfState, engine: Engine) -> Charge:
    """§3.17 order: invalid_field, engine checks, not_a_ram, target_destroyed, total cover, actor checks."""
    target = command.target
    if target.kind == "square" or (target.kind == "engine" and target.id == engine.id):
        raise Rejected("invalid_field")
    engine_checks(state, engine)
    if spec_of(engine).family != "ram":
        raise Rejected("not_a_ram")
    if target_destroyed(state, target):
        raise Rejected("target_destroyed")
    struck = struck_target(state, target, engine.position)
    ac = armor_class(state, struck, touch=False)  # PF-DIRECT-03/04: cover counts; total cover refuses
    actors_check(state, crew_of(state, engine), "full_round")  # PF-ASSAULT-03
    leader = leader_of(state, engine)
    assert leader is not None  # engine checks proved a crew, and a crew has its leader
    return Charge(state=state, engine=engine, leader=leader, struck=struck, ac=ac, charging=command.charging)


def _resolve(charge: Charge, dice: Dice) -> tuple[Report, list[Event]]:
    """Attack (natural 1: mishap, PF-MISHAP-01); on a hit the critical, damage and its application."""
    engine = charge.engine
    modifiers = attack_terms(charge.state, engine, charge.leader, charge.charging, charge.structure)
    roll = attack(dice, "attack", modifiers, charge.ac)
    report = Report(kind="ram", mode="direct", roll=roll)
    events: list[Event] = []
    if is_mishap(spec_of(engine), charge.leader, roll.natural):
        report = report.with_(mishap=True)
        # PF-MISHAP-02: an engine already broken takes no further effect
        events += [] if engine.broken else [EngineBrokenByMishap(engine_id=engine.id)]
    if not roll.success:
        return report, events
    report, more = _hit(charge, modifiers, roll.natural, report, dice)
    return report, events + more


def _hit(
    charge: Charge, modifiers: tuple[Mod, ...], natural: int, report: Report, dice: Dice
) -> tuple[Report, list[Event]]:
    """PF-ASSAULT-02, PF-CRIT-01/03: 20/×3 confirmed against the same AC; damage applied by PF-GEN-10."""
    spec = spec_of(charge.engine)
    assert spec.damage is not None
    threat = crit.threat_range(spec, charge.structure)
    critical = crit.resolve(dice, natural, True, threat, modifiers, charge.ac)
    static = damage_static(charge.state, charge.engine, charge.charging, charge.structure)
    damage = roll_damage(dice, "damage", spec.damage, static, critical.multiplier)
    blow = Blow(zone="target", distance_ft=charge.struck.distance_ft, damage_in=damage.total)
    effects, events, falls = apply(charge.state, [(charge.struck, blow)])
    report = report.with_(
        hit=True,
        threat=critical.threat,
        confirm=critical.confirm,
        critical_multiplier=critical.multiplier,
        damage=damage,
        effects=tuple(effects),
        collapse=tuple(falls),
    )
    return report, events
