"""`embark` and `disembark` (EP-TOWER-01): passengers board a transport at its location, at no cost."""

from __future__ import annotations

from rules.epic.board import find_stand, passengers, stand
from rules.epic.commands import Disembark, Embark
from rules.epic.events import Event, StandDisembarked, StandEmbarked
from rules.epic.movers import mover_events, require_charge_window, require_moving_order
from rules.epic.results import Boarding
from rules.epic.state import Embarked, EpicState, Stand
from rules.errors import Rejected
from rules.ruleset import Outcome


def embark(command: Embark, state: EpicState) -> Outcome[Event]:
    rider = stand(state, command.stand_id)
    transport = find_stand(state, command.transport_id)
    if transport is None or transport.stand_type != "transport_war_engine":
        raise Rejected("not_a_transport")
    if transport.destroyed:
        raise Rejected("target_destroyed")
    if rider.location.kind == "embarked":
        raise Rejected("embarked")
    if rider.location != transport.location:
        raise Rejected("not_in_contact")
    if len(passengers(state, transport.id)) >= transport.capacity:
        raise Rejected("transport_full")
    _require_free(state, rider)
    aboard = Embarked(transport_id=transport.id)
    result = Boarding(stand_id=rider.id, transport_id=transport.id, location=aboard)
    events = (StandEmbarked(stand_id=rider.id, transport_id=transport.id), *mover_events(state, rider.order))
    return Outcome(result=result, events=events)


def disembark(command: Disembark, state: EpicState) -> Outcome[Event]:
    rider = stand(state, command.stand_id)
    if rider.location.kind != "embarked":
        raise Rejected("not_embarked")
    transport = stand(state, rider.location.transport_id)
    _require_free(state, rider)
    location = transport.location
    result = Boarding(stand_id=rider.id, transport_id=transport.id, location=location)
    events = (StandDisembarked(stand_id=rider.id, location=location), *mover_events(state, rider.order))
    return Outcome(result=result, events=events)


def _require_free(state: EpicState, rider: Stand) -> None:
    if rider.pending_climb is not None:
        raise Rejected("already_climbing")
    require_moving_order(rider)
    require_charge_window(state, rider)
