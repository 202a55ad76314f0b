"""Close-combat result shapes (spec §2): the sides of a roll, the defender's bonus, the outcome."""

from __future__ import annotations

from typing import Literal

from rules.codec import JSON, encode
from rules.epic.board import half_va, tir_appuye
from rules.epic.saves import modifier
from rules.epic.state import EpicState, Location, Section
from rules.epic.tables import FORTIFICATIONS, Approach

Kind = Literal["war_engine", "undefended_climb", "fight", "automatic"]


def side_roll(dice: list[int], modifiers: list[dict[str, JSON]]) -> dict[str, JSON]:
    return {
        "dice": dice,
        "modifiers": modifiers,
        "total": sum(dice) + sum(int(m["value"]) for m in modifiers),
    }


def defender_modifiers(state: EpicState, target: Section, approach: Approach) -> list[dict[str, JSON]]:
    """EP-ASSAULT-02, EP-BEHIND-02, EP-TOWER-03: full VA from outside, half from behind, none from a tower."""
    if approach == "tower":
        return []
    if approach == "behind":
        return [modifier("fort_va_half", half_va(state, target))]
    bonus = tir_appuye(state, target)
    full = [modifier("fort_va", FORTIFICATIONS[target.kind].fort_va)]
    return full + ([modifier("tir_appuye", bonus)] if bonus else [])


def success_or_failure(success: bool) -> str:
    return "success" if success else "failure"


def assault_result(
    kind: Kind,
    approach: Approach | None,
    verdict: str,
    lost: tuple[str, ...],
    where: Location | None,
    *,
    attacker: dict[str, JSON] | None = None,
    defender: dict[str, JSON] | None = None,
    target: int | None = None,
    section_destroyed: bool = False,
) -> dict[str, JSON]:
    """Every field of §3.8's outcome; those that do not apply to the kind are null."""
    return {
        "kind": kind,
        "attacker": attacker,
        "defender": defender,
        "target": target,
        "approach": approach,
        "result": verdict,
        "destroyed_stands": list(lost),
        "section_destroyed": section_destroyed,
        "attacker_location": encode(where),
    }
