"""Read-only questions about the board: lookups, occupants, held and defended sections, effective VA."""

from __future__ import annotations

import math
from collections.abc import Iterable

from rules.epic.state import Embarked, EpicState, On, Section, Stand
from rules.epic.tables import FORTIFICATIONS, TIR_APPUYE_BONUS, Side
from rules.errors import Rejected
from rules.frozen import by_id


def find_stand(state: EpicState, stand_id: str) -> Stand | None:
    return by_id(state.stands, stand_id)


def find_section(state: EpicState, section_id: str) -> Section | None:
    return by_id(state.sections, section_id)


def stand(state: EpicState, stand_id: str) -> Stand:
    found = find_stand(state, stand_id)
    if found is None:
        raise Rejected("unknown_entity")
    return found


def section(state: EpicState, section_id: str) -> Section:
    found = find_section(state, section_id)
    if found is None:
        raise Rejected("unknown_entity")
    return found


def exists(state: EpicState, entity_id: str) -> bool:
    return find_stand(state, entity_id) is not None or find_section(state, entity_id) is not None


def occupants(state: EpicState, section_id: str) -> list[Stand]:
    """Living stands `on` the section, in creation order (EP-FORT-04; the dead occupy nothing, EP-GEN-07)."""
    # compared by class and id: no `On` built per stand (every climb, assault and hold asks)
    return [
        s
        for s in state.stands
        if not s.destroyed and type(s.location) is On and s.location.section_id == section_id
    ]


def enemies_on(state: EpicState, section_id: str, side: Side) -> list[Stand]:
    return [s for s in occupants(state, section_id) if s.side != side]


def is_defended(state: EpicState, section_id: str, against: Side) -> bool:
    """EP-FORT-05: at least one enemy of `against` is on it."""
    return bool(enemies_on(state, section_id, against))


def is_held_by(state: EpicState, section_id: str, side: Side) -> bool:
    """EP-HOLD-01: a stand of `side` on it and no enemy."""
    on_it = occupants(state, section_id)
    return any(s.side == side for s in on_it) and all(s.side == side for s in on_it)


def is_full(state: EpicState, target: Section) -> bool:
    """EP-CLIMB-07: no room left on the section."""
    return len(occupants(state, target.id)) >= target.capacity


def passengers(state: EpicState, transport_id: str) -> list[Stand]:
    return [
        s
        for s in state.stands
        if not s.destroyed and type(s.location) is Embarked and s.location.transport_id == transport_id
    ]


def tir_appuye(state: EpicState, target: Section) -> int:
    """EP-FORT-03 / EP-GATE-02: +2 for a gate under First Fire (only while closed under the option)."""
    if not target.is_gate or target.order != "first_fire":
        return 0
    if state.options.ta_bonus_only_when_closed and target.door != "closed":
        return 0
    return TIR_APPUYE_BONUS


def va_eff(state: EpicState, target: Section) -> int:
    return FORTIFICATIONS[target.kind].fort_va + tir_appuye(state, target)


def half_va(state: EpicState, target: Section) -> int:
    """EP-BEHIND-02: half of VA_eff, the gate's +2 included, rounded by `half_va_rounding`."""
    halve = math.ceil if state.options.half_va_rounding == "ceil" else math.floor
    return int(halve(va_eff(state, target) / 2))


def malus_against(state: EpicState, target: Stand) -> int:
    """EP-SHOOT-03/05: the shooting malus of the intact section a stand is on, else 0."""
    location = target.location
    if location.kind != "on":
        return 0
    where = find_section(state, location.section_id)
    if where is None or not where.intact:
        return 0
    return FORTIFICATIONS[where.kind].malus


def in_creation_order(state: EpicState, stand_ids: Iterable[str]) -> list[str]:
    wanted = set(stand_ids)
    return [s.id for s in state.stands if s.id in wanted]
