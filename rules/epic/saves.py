"""Save rolls (spec §2 roll shape): fortification saves on 2D6 (SAVE), stands' armour saves (EP-SHOOT-04)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import Dice
from rules.epic.board import occupants, tir_appuye
from rules.epic.events import Event, SectionDestroyed, SectionSaveMade, StandsDestroyed
from rules.epic.results import Label, Modifier, SaveRoll, total_of
from rules.epic.state import EpicState, Section, Stand
from rules.epic.tables import FORTIFICATIONS


def modifier(label: Label, value: int) -> Modifier:
    return Modifier(label=label, value=value)


def roll(slot: str, dice: list[int], modifiers: tuple[Modifier, ...], target: int) -> SaveRoll:
    """A save: succeeds when dice + modifiers reach the target (EP-GEN-04)."""
    total = total_of(tuple(dice), modifiers)
    return SaveRoll(
        slot=slot, dice=tuple(dice), modifiers=modifiers, total=total, target=target, success=total >= target
    )


def save_modifiers(save_modifier: int) -> tuple[Modifier, ...]:
    """A weapon without a save modifier adds no `save_modifier` entry (a modifier that does not apply)."""
    return (modifier("save_modifier", save_modifier),) if save_modifier else ()


@dataclass(frozen=True, slots=True, kw_only=True)
class SectionSave:
    roll: SaveRoll
    consecutive_failed_saves: int
    destroyed: bool
    destroyed_stands: tuple[str, ...]
    events: tuple[Event, ...]


def section_save(state: EpicState, target: Section, save_modifier: int, dice: Dice) -> SectionSave:
    """EP-SAVE-01..04: one 2D6 save; failures count up to the kind's limit, a success resets the count."""
    values = dice.roll("save", 6, 2, summed=(2,))
    bonus = tir_appuye(state, target)
    modifiers = save_modifiers(save_modifier) + ((modifier("tir_appuye", bonus),) if bonus else ())
    result = roll("save", values, modifiers, FORTIFICATIONS[target.kind].save)
    failed = 0 if result.success else target.consecutive_failed_saves + 1
    destroyed = failed >= failures_to_destroy(state, target)
    events: tuple[Event, ...] = (
        SectionSaveMade(section_id=target.id, success=result.success, consecutive_failed_saves=failed),
    )
    lost: tuple[str, ...] = ()
    if destroyed:
        lost, fall = destroy_section(state, target)
        events += fall
    return SectionSave(
        roll=result,
        consecutive_failed_saves=failed,
        destroyed=destroyed,
        destroyed_stands=lost,
        events=events,
    )


def failures_to_destroy(state: EpicState, target: Section) -> int:
    if target.is_gate and state.options.gate_needs_two_failures:
        return 2
    return FORTIFICATIONS[target.kind].failures_to_destroy


def destroy_section(state: EpicState, target: Section) -> tuple[tuple[str, ...], tuple[Event, ...]]:
    """EP-FORT-07: the section becomes a breach; its occupants fall with it only under the option."""
    events: tuple[Event, ...] = (SectionDestroyed(section_id=target.id),)
    if not state.options.occupants_destroyed_with_section:
        return (), events
    lost = tuple(s.id for s in occupants(state, target.id))
    return lost, (*events, StandsDestroyed(stand_ids=lost)) if lost else events


def unit_save(target: Stand, save_modifier: int, dice: Dice) -> SaveRoll | None:
    """EP-SHOOT-04: unit_save d6 + modifier ≥ save survives; None when the stand has no save."""
    if target.save is None:
        return None
    return roll("unit_save", [dice.one("unit_save", 6)], save_modifiers(save_modifier), target.save)
