"""What a new turn clears (EP-TIME-02): orders, movement, climbs, fired weapons and gate counters."""

from __future__ import annotations

from typing import Any

from rules.epic.state import EpicState
from rules.frozen import replace

# EP-TIME-02: what a new turn clears; only records that differ from these are rebuilt
STAND_RESET: dict[str, Any] = {
    "order": None,
    "movement_left_cm": 0,
    "pending_climb": None,
    "climbed_this_turn": False,
    "assaulted_this_turn": False,
    "fired_weapons": (),
}
GATE_RESET: dict[str, Any] = {
    "order": None,
    "opened_this_turn": False,
    "closed_this_turn": False,
    "operations_this_turn": 0,
    "repair_tried_this_turn": False,
}


def new_turn(state: EpicState) -> EpicState:
    stands = tuple(_reset(s, STAND_RESET) for s in state.stands)
    sections = tuple(_reset(s, GATE_RESET) if s.is_gate else s for s in state.sections)
    return replace(state, stands=stands, sections=sections, advance_mover_acted=False)


def _reset(record: Any, cleared: dict[str, Any]) -> Any:
    if all(getattr(record, name) == value for name, value in cleared.items()):
        return record
    return replace(record, **cleared)
