"""`assault` (EP-ASSAULT-01..06, EP-CLIMB-05): resolves a pending climb, or a war engine's blow."""

from __future__ import annotations

from rules.dice import Dice
from rules.epic.board import (
    enemies_on,
    in_creation_order,
    is_full,
    is_held_by,
    occupants,
    section,
    stand,
    va_eff,
)
from rules.epic.commands import Assault
from rules.epic.events import AssaultMade, Event, FootholdTaken, StandsDestroyed
from rules.epic.fight import assault_result, defender_modifiers, defender_roll, side_roll, success_or_failure
from rules.epic.results import AssaultKind
from rules.epic.saves import modifier
from rules.epic.state import EpicState, On, PendingClimb, Section, Stand
from rules.epic.tables import WAR_ENGINES
from rules.epic.warengine import war_engine_assault
from rules.errors import Rejected
from rules.ruleset import Outcome


def assault(command: Assault, state: EpicState, dice: Dice) -> Outcome[Event]:
    attacker = stand(state, command.stand_id)
    target = section(state, command.section_id)
    if attacker.stand_type == "vehicle":
        raise Rejected("vehicle_cannot_assault")
    if attacker.stand_type in WAR_ENGINES:
        return war_engine_assault(state, attacker, target, dice)
    pending = attacker.pending_climb
    if pending is None or pending.section_id != target.id:
        raise Rejected("no_pending_climb")
    if not target.intact:
        raise Rejected("section_destroyed")
    # EP-ASSAULT-06: the section is judged as it stands now, not as it stood when the climb was declared
    enemies = enemies_on(state, target.id, attacker.side)
    if is_held_by(state, target.id, attacker.side) or (not enemies and pending.approach != "outside"):
        return _automatic(state, attacker, target, pending)
    if not enemies:
        return _undefended_climb(state, attacker, target, pending, dice)
    return _fight(state, command.defender_id, attacker, target, pending, dice)


def _automatic(state: EpicState, attacker: Stand, target: Section, pending: PendingClimb) -> Outcome[Event]:
    if is_full(state, target):
        raise Rejected("section_full")
    events = _made(attacker, target, "automatic", "automatic") + _foothold(attacker, target)
    result = assault_result("automatic", pending.approach, "automatic", (), On(section_id=target.id))
    return Outcome(result=result, events=events)


def _undefended_climb(
    state: EpicState, attacker: Stand, target: Section, pending: PendingClimb, dice: Dice
) -> Outcome[Event]:
    """EP-CLIMB-05: 2D6 + caf > VA_eff takes the section; failure leaves the stand at its foot, unharmed."""
    roll = side_roll(dice.roll("attacker", 6, 2, summed=(2,)), (modifier("caf", attacker.caf),))
    goal = va_eff(state, target)
    success = roll.total > goal
    verdict = success_or_failure(success)
    events = _made(attacker, target, "undefended_climb", verdict) + (
        _foothold(attacker, target) if success else ()
    )
    where = On(section_id=target.id) if success else attacker.location
    result = assault_result(
        "undefended_climb", pending.approach, verdict, (), where, attacker=roll, target=goal
    )
    return Outcome(result=result, events=events)


def _fight(
    state: EpicState,
    defender_id: str | None,
    attacker: Stand,
    target: Section,
    pending: PendingClimb,
    dice: Dice,
) -> Outcome[Event]:
    """EP-ASSAULT-02..05: one opposed roll against one defender of the defending player's choice."""
    enemies = enemies_on(state, target.id, attacker.side)
    defender = _chosen_defender(enemies, defender_id)
    attack = side_roll(dice.roll("attacker", 6, 2, summed=(2,)), (modifier("caf", attacker.caf),))
    defence_mods = (modifier("caf", defender.caf), *defender_modifiers(state, target, pending.approach))
    defence = defender_roll(defender.id, dice.roll("defender", 6, 2, summed=(2,)), defence_mods)
    margin = attack.total - defence.total
    verdict = "attacker_wins" if margin > 0 else "defender_wins" if margin < 0 else "tie"
    lost = _losses(state, verdict, attacker, defender)
    # EP-ASSAULT-03 / EP-TOWER-05: the winner moves on only when no enemy remains and there is room
    left_on = [s for s in occupants(state, target.id) if s.id not in lost]
    foothold = verdict == "attacker_wins" and len(enemies) == 1 and len(left_on) < target.capacity
    events = _made(attacker, target, "fight", verdict)
    events += ((StandsDestroyed(stand_ids=lost),) if lost else ()) + (
        _foothold(attacker, target) if foothold else ()
    )
    where = None if attacker.id in lost else On(section_id=target.id) if foothold else attacker.location
    result = assault_result(
        "fight", pending.approach, verdict, lost, where, attacker=attack, defender=defence
    )
    return Outcome(result=result, events=events)


def _chosen_defender(enemies: list[Stand], defender_id: str | None) -> Stand:
    """EP-ASSAULT-05: with several occupants the defending player names the one who fights."""
    if defender_id is None:
        if len(enemies) > 1:
            raise Rejected("defender_choice_required")
        return enemies[0]
    for enemy in enemies:
        if enemy.id == defender_id:
            return enemy
    raise Rejected("not_a_defender")


def _losses(state: EpicState, verdict: str, attacker: Stand, defender: Stand) -> tuple[str, ...]:
    """EP-ASSAULT-03: the loser is destroyed; a tie destroys both only under `tie_rule: both_destroyed`."""
    if verdict == "attacker_wins":
        return (defender.id,)
    if verdict == "defender_wins":
        return (attacker.id,)
    if state.options.tie_rule == "both_destroyed":
        return tuple(in_creation_order(state, (attacker.id, defender.id)))
    return ()


def _made(attacker: Stand, target: Section, kind: AssaultKind, verdict: str) -> tuple[Event, ...]:
    return (AssaultMade(stand_id=attacker.id, section_id=target.id, kind=kind, result=verdict),)


def _foothold(attacker: Stand, target: Section) -> tuple[Event, ...]:
    return (FootholdTaken(stand_id=attacker.id, section_id=target.id),)
