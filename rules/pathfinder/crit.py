"""Critical hits (PF-CRIT-01..04, PF-ENGINE-02): threat range, confirmation and multiplier."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import Dice
from rules.pathfinder.catalog import EngineSpec
from rules.pathfinder.rolls import Check, Mod, attack
from rules.pathfinder.state import Structure


@dataclass(frozen=True, slots=True, kw_only=True)
class Critical:
    threat: bool
    confirm: Check | None
    multiplier: int  # 1 unless confirmed


NO_CRITICAL = Critical(threat=False, confirm=None, multiplier=1)


def threat_range(spec: EngineSpec, target: Structure | None) -> tuple[int, int] | None:
    """(lowest threatening natural, multiplier); the gate breaker is 19–20/×3 against wood (PF-ENGINE-02)."""
    if spec.critical is None or spec.threat_range_min is None or spec.critical_multiplier is None:
        return None  # PF-CRIT-04: firedrake, firewyrm, crushing wheel never threaten
    if spec.family == "ballista_gate_breaker" and target is not None and target.material == "wood":
        return spec.threat_range_min, 3
    return spec.threat_range_min, spec.critical_multiplier


def resolve(
    dice: Dice,
    natural: int,
    hit: bool,
    threat: tuple[int, int] | None,
    modifiers: tuple[Mod, ...],
    number: int,
) -> Critical:
    """A hit whose natural lies in the range threatens; `confirm` repeats the roll against the same number."""
    if not hit or threat is None or natural < threat[0]:
        return NO_CRITICAL
    confirm = attack(dice, "confirm", modifiers, number)
    return Critical(threat=True, confirm=confirm, multiplier=threat[1] if confirm.success else 1)
