"""`barrage` (EP-BARRAGE-01..04, EP-SAVE-05): stands under a template roll to hit, sections save once each."""

from __future__ import annotations

from rules.dice import Dice
from rules.epic.board import find_stand, in_creation_order, section, stand
from rules.epic.commands import Barrage
from rules.epic.events import Event, StandsDestroyed, WeaponFired
from rules.epic.results import BarrageFired, SectionUnderBarrage, StandUnderBarrage
from rules.epic.saves import section_save, unit_save
from rules.epic.state import EpicState, Stand
from rules.epic.tables import barrage_needed
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


def barrage(command: Barrage, state: EpicState, dice: Dice) -> Outcome[Event]:
    firers = [stand(state, i) for i in command.stand_ids]
    _require_firers(command, state, firers)
    targets = [stand(state, i) for i in command.target_stand_ids]
    sections = [section(state, i) for i in command.target_section_ids]
    for firer in firers:
        for target in targets:
            require_enemy(firer.side, target)
        if sections:
            require_section_target(firer.side)
    for check in (require_alive, require_supported):
        for target in targets:
            check(target)
    for each in sections:
        require_intact(each)
    _require_spotter(command, state, firers[0], targets)
    base = barrage_needed(command.barrage_points)
    stands, lost = _stands_under(state, command, base, targets, dice)
    events: list[Event] = [WeaponFired(stand_ids=command.stand_ids, weapon_id=command.weapon_id)]
    events += [StandsDestroyed(stand_ids=tuple(lost))] if lost else []
    section_rows: list[SectionUnderBarrage] = []
    for each in sections:
        save = section_save(state, each, command.save_modifier, dice)
        events += save.events
        lost += save.destroyed_stands
        row = SectionUnderBarrage(
            section_id=each.id,
            save=save.roll,
            consecutive_failed_saves=save.consecutive_failed_saves,
            destroyed=save.destroyed,
        )
        section_rows.append(row)
    destroyed = in_creation_order(state, lost)
    result = BarrageFired(
        needed_base=base,
        stands=tuple(stands),
        sections=tuple(section_rows),
        destroyed_stands=tuple(destroyed),
    )
    return Outcome(result=result, events=tuple(events))


def _require_firers(command: Barrage, state: EpicState, firers: list[Stand]) -> None:
    """EP-BARRAGE-02: one shared order, allowed in this segment; each weapon once per turn."""
    if any(f.location.kind == "embarked" for f in firers):
        raise Rejected("embarked")
    if len({f.order for f in firers}) > 1:
        raise Rejected("mixed_orders")
    order = firers[0].order
    if order is None or order == "charge":
        raise Rejected("order_cannot_shoot")
    if command.kind == "indirect" and order != "first_fire":
        raise Rejected("indirect_needs_first_fire")
    require_shooting_order(order, state.phase)
    if any(command.weapon_id in f.fired_weapons for f in firers):
        raise Rejected("weapon_already_fired")


def _require_spotter(command: Barrage, state: EpicState, firer: Stand, targets: list[Stand]) -> None:
    """EP-BARRAGE-03: indirect fire at stands inside the fortress or on its walls needs a spotter."""
    into_fortress = any(t.location.kind in ("inside", "on") for t in targets)
    if command.kind != "indirect" or not into_fortress:
        return
    if command.spotter_id is None:
        raise Rejected("no_spotter")
    spotter = find_stand(state, command.spotter_id)
    if (
        spotter is None
        or spotter.destroyed
        or spotter.side != firer.side
        or spotter.location.kind == "embarked"
    ):
        raise Rejected("spotter_invalid")


def _stands_under(
    state: EpicState, command: Barrage, base: int, targets: list[Stand], dice: Dice
) -> tuple[list[StandUnderBarrage], list[str]]:
    """To-hit dice for every stand that can be hit, then armour saves, each in the listed order (§4)."""
    needs = [needed_against(state, base, t) for t in targets]
    dies = [dice.one("to_hit", 6) if need.can_hit else None for need in needs]
    rows: list[StandUnderBarrage] = []
    lost: list[str] = []
    for target, need, die in zip(targets, needs, dies, strict=True):
        hit = die is not None and die >= need.needed
        armour = unit_save(target, command.save_modifier, dice) if hit else None
        destroyed = hit and (armour is None or not armour.success)
        lost += [target.id] if destroyed else []
        row = StandUnderBarrage(
            stand_id=target.id, needed=need.needed, die=die, hit=hit, unit_save=armour, destroyed=destroyed
        )
        rows.append(row)
    return rows, lost
