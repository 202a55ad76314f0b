"""The supplement's fixed numbers: fortification statistics, phases, movement factors, barrage to-hit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.ruleset import Slot

Phase = Literal["orders", "movement", "first_fire", "close_combat", "advance_fire", "end"]
Order = Literal["charge", "advance", "first_fire"]
Side = Literal["attacker", "defender"]
StandType = Literal["infantry", "war_engine", "vehicle", "transport_war_engine"]
SectionKind = Literal["wall", "tower", "gate", "blockhouse"]
Approach = Literal["outside", "behind", "tower"]

PHASES: tuple[Phase, ...] = ("orders", "movement", "first_fire", "close_combat", "advance_fire", "end")
# EP-TIME-06: the phases commands may be sent in, in PHASES order (gates are judged further, §3.11)
ORDERS: tuple[Phase, ...] = ("orders",)
MOVEMENT: tuple[Phase, ...] = ("movement",)
SHOOTING: tuple[Phase, ...] = ("first_fire", "advance_fire")
CLOSE_COMBAT: tuple[Phase, ...] = ("close_combat",)
GATE_PHASES: tuple[Phase, ...] = ("movement", "first_fire", "close_combat", "advance_fire")
END: tuple[Phase, ...] = ("end",)
WAR_ENGINES: frozenset[str] = frozenset({"war_engine", "transport_war_engine"})
# EP-MOVE-01: movement allowance = factor × speed_cm
MOVE_FACTOR: dict[str, int] = {"charge": 2, "advance": 1}
TIR_APPUYE_BONUS = 2  # EP-FORT-03, EP-SAVE-01
CLIMB_COST_CM = 5  # EP-CLIMB-02
REPAIR_NEEDED = 5  # EP-GATE-05
JAM_FACE = 6  # EP-GATE-04


@dataclass(frozen=True, slots=True, kw_only=True)
class FortStats:
    """One row of EP-FORT-01."""

    fort_va: int
    save: int
    malus: int
    failures_to_destroy: int


FORTIFICATIONS: dict[str, FortStats] = {
    "wall": FortStats(fort_va=6, save=3, malus=3, failures_to_destroy=2),
    "tower": FortStats(fort_va=8, save=2, malus=3, failures_to_destroy=2),
    "gate": FortStats(fort_va=4, save=2, malus=1, failures_to_destroy=1),
    "blockhouse": FortStats(fort_va=7, save=2, malus=2, failures_to_destroy=2),
}


def next_phase(phase: Phase) -> Phase:
    return PHASES[(PHASES.index(phase) + 1) % len(PHASES)]


def barrage_needed(barrage_points: int) -> int:
    """EP-BARRAGE-01: 1–2 → 6, 3–4 → 5, 5–6 → 4, 7–8 → 3, 9+ → 2."""
    return max(2, 6 - (barrage_points - 1) // 2)


# spec §4: every slot is a d6; 2D6 slots take two values per roll
SLOTS: dict[str, Slot] = {
    "attacker": Slot(faces=6, per_roll=2, doc="the attacker's 2D6 in an assault"),
    "defender": Slot(faces=6, per_roll=2, doc="the defender's 2D6 in a fight"),
    "save": Slot(faces=6, per_roll=2, doc="2D6 per fortification save"),
    "to_hit": Slot(faces=6, doc="1D6 per shot, or per stand under a barrage that can be hit"),
    "unit_save": Slot(faces=6, doc="1D6 per hit stand that has a save"),
    "jam": Slot(faces=6, doc="1D6 per gate operated under a Charge order"),
    "repair": Slot(faces=6, doc="1D6 per repair of a jammed gate"),
}
DICE_SLOTS: dict[str, int | None] = {name: slot.faces for name, slot in SLOTS.items()}
