"""Who may shoot when and at whom (EP-SHOOT-01/02/06, EP-BARRAGE-04); the number needed (EP-SHOOT-03)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.epic.board import malus_against
from rules.epic.state import EpicState, Section, Stand
from rules.epic.tables import WAR_ENGINES, Order, Phase, Side
from rules.errors import Rejected

SEGMENT_OF: dict[str, Phase] = {"first_fire": "first_fire", "advance": "advance_fire"}


def require_shooting_order(order: Order | None, phase: Phase) -> None:
    """First Fire stands shoot in first_fire, Advance stands in advance_fire; Charge and no order never."""
    if order is None or order not in SEGMENT_OF:
        raise Rejected("order_cannot_shoot")
    if SEGMENT_OF[order] != phase:
        raise Rejected("wrong_phase")


def require_section_target(side: Side) -> None:
    """EP-SHOOT-02 / EP-BARRAGE-04: only the besieger shoots at the fortress."""
    if side != "attacker":
        raise Rejected("friendly_target")


def require_enemy(side: Side, target: Stand) -> None:
    if target.side == side:
        raise Rejected("friendly_target")


def require_alive(target: Stand) -> None:
    if target.destroyed:
        raise Rejected("target_destroyed")


def require_supported(target: Stand) -> None:
    """EP-SHOOT-06: war engines and embarked stands are out of this service's reach."""
    if target.stand_type in WAR_ENGINES or target.location.kind == "embarked":
        raise Rejected("unsupported_target")


def require_intact(target: Section) -> None:
    if not target.intact:
        raise Rejected("section_destroyed")


@dataclass(frozen=True, slots=True, kw_only=True)
class Needed:
    needed: int
    malus: int
    can_hit: bool


def needed_against(state: EpicState, base: int, target: Stand) -> Needed:
    """EP-SHOOT-03 / EP-BARRAGE-01: base + the malus of the intact section the target stands on."""
    malus = malus_against(state, target)
    needed = base + malus
    if needed <= 6:
        return Needed(needed=needed, malus=malus, can_hit=True)
    if state.options.natural_six_always_hits:
        return Needed(needed=6, malus=malus, can_hit=True)
    return Needed(needed=needed, malus=malus, can_hit=False)
