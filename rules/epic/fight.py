"""Close-combat result shapes (spec §2): the sides of a roll, the defender's bonus, the outcome."""

from __future__ import annotations

from rules.epic.board import half_va, tir_appuye
from rules.epic.results import AssaultKind, AssaultResolved, AttackerRoll, DefenderRoll, Modifier, total_of
from rules.epic.saves import modifier
from rules.epic.state import EpicState, Location, Section
from rules.epic.tables import FORTIFICATIONS, Approach


def side_roll(dice: list[int], modifiers: tuple[Modifier, ...]) -> AttackerRoll:
    return AttackerRoll(dice=tuple(dice), modifiers=modifiers, total=total_of(tuple(dice), modifiers))


def defender_roll(stand_id: str, dice: list[int], modifiers: tuple[Modifier, ...]) -> DefenderRoll:
    total = total_of(tuple(dice), modifiers)
    return DefenderRoll(stand_id=stand_id, dice=tuple(dice), modifiers=modifiers, total=total)


def defender_modifiers(state: EpicState, target: Section, approach: Approach) -> tuple[Modifier, ...]:
    """EP-ASSAULT-02, EP-BEHIND-02, EP-TOWER-03: full VA from outside, half from behind, none from a tower."""
    if approach == "tower":
        return ()
    if approach == "behind":
        return (modifier("fort_va_half", half_va(state, target)),)
    bonus = tir_appuye(state, target)
    full = (modifier("fort_va", FORTIFICATIONS[target.kind].fort_va),)
    return full + ((modifier("tir_appuye", bonus),) if bonus else ())


def success_or_failure(success: bool) -> str:
    return "success" if success else "failure"


def assault_result(
    kind: AssaultKind,
    approach: Approach | None,
    verdict: str,
    lost: tuple[str, ...],
    where: Location | None,
    *,
    attacker: AttackerRoll | None = None,
    defender: DefenderRoll | None = None,
    target: int | None = None,
    section_destroyed: bool = False,
) -> AssaultResolved:
    """Every field of §3.8's outcome; those that do not apply to the kind are null."""
    return AssaultResolved(
        kind=kind,
        attacker=attacker,
        defender=defender,
        target=target,
        approach=approach,
        result=verdict,
        destroyed_stands=lost,
        section_destroyed=section_destroyed,
        attacker_location=where,
    )
