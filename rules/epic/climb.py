"""`climb` (EP-CLIMB-01..08, EP-BEHIND-01, EP-TOWER-02..04): pay 5 cm, then a foothold or a pending fight."""

from __future__ import annotations

from rules.epic.board import find_stand, is_defended, is_full, is_held_by, passengers, section, stand
from rules.epic.commands import Climb
from rules.epic.events import ClimbDeclared, Event, FootholdTaken
from rules.epic.movers import mover_events, require_charge_window, require_moving_order
from rules.epic.results import AutomaticReason, ClimbMade
from rules.epic.state import EpicState, On, Section, Stand
from rules.epic.tables import CLIMB_COST_CM, Approach
from rules.errors import Rejected
from rules.ruleset import Outcome


def climb(command: Climb, state: EpicState) -> Outcome[Event]:
    climber = stand(state, command.stand_id)
    target = section(state, command.section_id)
    if climber.stand_type != "infantry":
        raise Rejected("not_infantry")
    if not target.intact:
        raise Rejected("section_destroyed")
    approach = approach_of(state, climber, target)
    if approach is None:
        raise Rejected("not_in_contact")
    if approach == "tower" and _transport(state, climber).order != "charge":
        raise Rejected("transport_not_on_charge")
    require_moving_order(climber)
    if climber.climbed_this_turn:
        raise Rejected("climbed_this_turn")
    if climber.pending_climb is not None:
        raise Rejected("already_climbing")
    require_charge_window(state, climber)
    if climber.movement_left_cm < CLIMB_COST_CM:
        raise Rejected("insufficient_movement")
    reason = _automatic_reason(state, climber, target, approach)
    defended = is_defended(state, target.id, climber.side)
    if reason is not None:
        return _foothold(state, climber, target, approach, defended, reason)
    return _declare(state, climber, target, approach, defended)


def approach_of(state: EpicState, climber: Stand, target: Section) -> Approach | None:
    """EP-CLIMB-01 / EP-BEHIND-01: from its foot, from inside or an adjacent section, or from a tower."""
    location = climber.location
    if location.kind == "at_foot" and location.section_id == target.id:
        return "outside"
    if location.kind == "inside" or (location.kind == "on" and location.section_id in target.adjacent):
        return "behind"
    if location.kind == "embarked":
        transport = find_stand(state, location.transport_id)
        if transport is not None and transport.location.kind == "at_foot":
            return "tower" if transport.location.section_id == target.id else None
    return None


def _automatic_reason(
    state: EpicState, climber: Stand, target: Section, approach: Approach
) -> AutomaticReason | None:
    """EP-CLIMB-03: held by the climber's side, or undefended and reached from behind or a siege tower."""
    if is_held_by(state, target.id, climber.side):
        return "held"
    if is_defended(state, target.id, climber.side) or approach == "outside":
        return None
    return "behind_undefended" if approach == "behind" else "tower_undefended"


def _foothold(
    state: EpicState,
    climber: Stand,
    target: Section,
    approach: Approach,
    defended: bool,
    reason: AutomaticReason,
) -> Outcome[Event]:
    if is_full(state, target):
        raise Rejected("section_full")
    result = ClimbMade(
        stand_id=climber.id,
        section_id=target.id,
        approach=approach,
        defended=defended,
        result="foothold",
        automatic_reason=reason,
        movement_left_cm=0,
        location=On(section_id=target.id),
    )
    events: tuple[Event, ...] = (FootholdTaken(stand_id=climber.id, section_id=target.id),)
    return Outcome(result=result, events=events + mover_events(state, climber.order))


def _declare(
    state: EpicState, climber: Stand, target: Section, approach: Approach, defended: bool
) -> Outcome[Event]:
    """EP-CLIMB-04: the stand stays put with a pending climb that `assault` resolves."""
    if climber.order != "charge":
        raise Rejected("charge_order_required")
    if approach == "tower" and any(p.pending_climb for p in passengers(state, _transport(state, climber).id)):
        raise Rejected("one_stand_at_a_time")
    left = climber.movement_left_cm - CLIMB_COST_CM
    result = ClimbMade(
        stand_id=climber.id,
        section_id=target.id,
        approach=approach,
        defended=defended,
        result="pending",
        automatic_reason=None,
        movement_left_cm=left,
        location=climber.location,
    )
    declared = ClimbDeclared(
        stand_id=climber.id, section_id=target.id, approach=approach, movement_left_cm=left
    )
    return Outcome(result=result, events=(declared,))


def _transport(state: EpicState, passenger: Stand) -> Stand:
    location = passenger.location
    if location.kind != "embarked":
        raise Rejected("not_embarked")
    return stand(state, location.transport_id)
