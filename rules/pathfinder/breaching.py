"""`break` (§3.18, PF-STRUCT-07): a Strength check against a structure's break DC, alone or with a ram."""

from __future__ import annotations

from functools import reduce

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder import sabotage
from rules.pathfinder.board import creature, crew_of, leader_of, spec_of, structure
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.checks import actor_checks, actors_check, engine_checks
from rules.pathfinder.commands import Break
from rules.pathfinder.events import ActionsSpent, Event, StructureStatusChanged
from rules.pathfinder.evolve import evolve
from rules.pathfinder.ram_bonuses import break_terms
from rules.pathfinder.results import BreakTried, SabotageDrawn, StructureAfter
from rules.pathfinder.rolls import Check, plain_check, strength_check
from rules.pathfinder.state import PfState, Structure
from rules.ruleset import Outcome


def break_structure(command: Break, state: PfState, dice: Dice) -> Outcome[Event]:
    target = _target(command, state)
    resolve = _with_ram if command.engine_id is not None else _alone
    check, events = resolve(command, state, target, dice)
    if check.success and not (target.broken and target.breached == _breached(target)):
        events.append(_broken(target))
    after = reduce(evolve, events, state)
    sabotaged: SabotageDrawn | None = None
    more: list[Event] = []
    if command.engine_id is not None:  # PF-DISABLE-02: drawn last, after the check
        sabotaged, more = sabotage.after_use(after, get_engine(after, command.engine_id), dice)
        events += more
    result = BreakTried(
        dc=target.break_dc,
        check=check,
        success=check.success,
        structure_after=_after(structure(after, target.id)),
        sabotage=sabotaged,
    )
    return Outcome(result=result, events=tuple(events), state=reduce(evolve, more, after))


def _target(command: Break, state: PfState) -> Structure:
    """invalid_field first, then structure_destroyed and no_break_dc (§3.18)."""
    if (command.engine_id is None) == (command.by is None) or (command.engine_id and command.take_10):
        raise Rejected("invalid_field")  # a ram or a creature, never both; take 10 only alone
    if command.by is not None and not command.charging:
        raise Rejected("invalid_field")  # charging is a ram field
    target = structure(state, command.structure_id)
    if target.destroyed:
        raise Rejected("structure_destroyed")
    if target.break_dc is None:
        raise Rejected("no_break_dc")
    return target


def _after(final: Structure) -> StructureAfter:
    return StructureAfter(broken=final.broken, breached=final.breached, hardness=final.effective_hardness)


def _alone(command: Break, state: PfState, target: Structure, dice: Dice) -> tuple[Check, list[Event]]:
    """A standard action: d20 + str_mod, take 10 allowed."""
    breaker = creature(state, command.by or "")
    actor_checks(state, breaker, "standard")
    check = strength_check(dice, breaker, target.break_dc or 0, take_10=command.take_10)
    return check, [ActionsSpent(creature_ids=(breaker.id,), action="standard")]


def _with_ram(command: Break, state: PfState, target: Structure, dice: Dice) -> tuple[Check, list[Event]]:
    """Engine checks, not_a_ram, every crew member's full-round action (PF-ASSAULT-03); the leader rolls."""
    ram = get_engine(state, command.engine_id or "")
    engine_checks(state, ram)
    if spec_of(ram).family != "ram":
        raise Rejected("not_a_ram")
    actors_check(state, crew_of(state, ram), "full_round")
    leader = leader_of(state, ram)
    assert leader is not None
    terms = break_terms(state, ram, leader, command.charging, target)
    check = plain_check(dice, "check", terms, target.break_dc)  # naturals have no special effect
    return check, [ActionsSpent(creature_ids=ram.crew_ids, action="full_round")]


def _broken(target: Structure) -> StructureStatusChanged:
    """Broken, hp unchanged; a gate or building is breached too, a wall square only once destroyed."""
    return StructureStatusChanged(
        structure_id=target.id,
        broken=True,
        breached=_breached(target),
        destroyed=target.destroyed,
    )


def _breached(target: Structure) -> bool:
    return target.breached or target.kind != "wall"
