"""`fire` (EP-SHOOT-01..06, SAVE): one weapon of one stand at a section or at a stand."""

from __future__ import annotations

from rules.dice import Dice
from rules.epic.board import section, stand
from rules.epic.commands import Fire
from rules.epic.events import Event, StandsDestroyed, WeaponFired
from rules.epic.results import Shot, ToHit
from rules.epic.saves import section_save, unit_save
from rules.epic.state import EpicState, Stand
from rules.epic.targeting import (
    needed_against,
    require_alive,
    require_enemy,
    require_intact,
    require_section_target,
    require_shooting_order,
    require_supported,
)
from rules.errors import Rejected
from rules.ruleset import Outcome


def fire(command: Fire, state: EpicState, dice: Dice) -> Outcome[Event]:
    shooter = stand(state, command.stand_id)
    if shooter.location.kind == "embarked":
        raise Rejected("embarked")
    require_shooting_order(shooter.order, state.phase)
    if command.weapon.id in shooter.fired_weapons:
        raise Rejected("weapon_already_fired")
    if command.target.section_id is not None:
        return _at_section(command, command.target.section_id, state, shooter, dice)
    return _at_stand(command, str(command.target.stand_id), state, shooter, dice)


def _at_section(
    command: Fire, section_id: str, state: EpicState, shooter: Stand, dice: Dice
) -> Outcome[Event]:
    """EP-SHOOT-02: no malus against the structure itself; a hit forces a save (EP-SAVE-01..04)."""
    target = section(state, section_id)
    require_section_target(shooter.side)
    require_intact(target)
    die = dice.one("to_hit", 6)
    hit = die >= command.weapon.to_hit
    events: tuple[Event, ...] = (WeaponFired(stand_ids=(shooter.id,), weapon_id=command.weapon.id),)
    to_hit = ToHit(die=die, needed=command.weapon.to_hit, malus=0, hit=hit)
    result = Shot(
        to_hit=to_hit, consecutive_failed_saves=target.consecutive_failed_saves, section_destroyed=False
    )
    if hit:
        save = section_save(state, target, command.weapon.save_modifier, dice)
        events += save.events
        result = Shot(
            to_hit=to_hit,
            save=save.roll,
            consecutive_failed_saves=save.consecutive_failed_saves,
            section_destroyed=save.destroyed,
            destroyed_stands=save.destroyed_stands,
        )
    return Outcome(result=result, events=events)


def _at_stand(command: Fire, stand_id: str, state: EpicState, shooter: Stand, dice: Dice) -> Outcome[Event]:
    """EP-SHOOT-03..05: to_hit + the malus of an intact section under the target; then the armour save."""
    target = stand(state, stand_id)
    require_enemy(shooter.side, target)
    require_alive(target)
    require_supported(target)
    needed = needed_against(state, command.weapon.to_hit, target)
    if not needed.can_hit:
        raise Rejected("cannot_hit")
    die = dice.one("to_hit", 6)
    hit = die >= needed.needed
    armour = unit_save(target, command.weapon.save_modifier, dice) if hit else None
    destroyed = hit and (armour is None or not armour.success)
    events: tuple[Event, ...] = (WeaponFired(stand_ids=(shooter.id,), weapon_id=command.weapon.id),)
    events += (StandsDestroyed(stand_ids=(target.id,)),) if destroyed else ()
    result = Shot(
        to_hit=ToHit(die=die, needed=needed.needed, malus=needed.malus, hit=hit),
        unit_save=armour,
        stand_destroyed=destroyed,
        destroyed_stands=(target.id,) if destroyed else (),
    )
    return Outcome(result=result, events=events)
