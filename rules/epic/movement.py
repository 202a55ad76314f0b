"""`move` (EP-MOVE-01..04, EP-HOLD-03): where a stand may go, crossing the walls, carrying passengers."""

from __future__ import annotations

from rules.epic.board import find_section, passengers, stand
from rules.epic.commands import Move
from rules.epic.events import Event, StandMoved
from rules.epic.movers import mover_events, require_charge_window, require_moving_order
from rules.epic.results import Moved
from rules.epic.state import EpicState, Location, Stand
from rules.epic.tables import WAR_ENGINES
from rules.errors import Rejected
from rules.ruleset import Outcome

OUTER = frozenset({"outside", "at_foot"})


def move(command: Move, state: EpicState) -> Outcome[Event]:
    mover = stand(state, command.stand_id)
    if mover.location.kind == "embarked":
        raise Rejected("embarked")
    if mover.climbed_this_turn:
        raise Rejected("climbed_this_turn")
    if mover.pending_climb or any(p.pending_climb for p in passengers(state, mover.id)):
        raise Rejected("already_climbing")
    require_moving_order(mover)
    require_charge_window(state, mover)
    via = _passage(state, mover, command.to, command.via)
    if command.distance_cm > mover.movement_left_cm:
        raise Rejected("insufficient_movement")
    left = mover.movement_left_cm - command.distance_cm
    carried = [p.id for p in passengers(state, mover.id)]
    result = Moved(
        origin=mover.location,
        to=command.to,
        via=via,
        distance_cm=command.distance_cm,
        movement_left_cm=left,
        passengers_moved=tuple(carried),
    )
    moved = StandMoved(stand_id=mover.id, to=command.to, movement_left_cm=left)
    return Outcome(result=result, events=(moved, *mover_events(state, mover.order)))


def _passage(state: EpicState, mover: Stand, to: Location, via: str | None) -> str | None:
    """EP-MOVE-02: the section crossed (`via`), or None when the move crosses nothing."""
    if to.kind == "on":
        raise Rejected("must_climb")
    if not _crosses(mover.location, to):
        return None
    if via is None:
        raise Rejected("invalid_field")
    gate_or_wall = find_section(state, via)
    if gate_or_wall is None or not gate_or_wall.intact:
        return via
    is_war_engine = mover.stand_type in WAR_ENGINES
    if gate_or_wall.is_gate and gate_or_wall.door == "open" and not is_war_engine:
        return via  # EP-GATE-07
    raise Rejected("must_climb" if mover.stand_type == "infantry" else "blocked_by_fortification")


def _crosses(start: Location, end: Location) -> bool:
    """Between the outside (outside, at_foot) and the enclosure; leaving a section crosses nothing."""
    return (start.kind in OUTER and end.kind == "inside") or (start.kind == "inside" and end.kind in OUTER)
