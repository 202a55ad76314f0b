"""Applies one event to the state; every event of the union is handled (mypy proves it)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, TypeVar, assert_never

from rules.epic.events import (
    AdvanceMoverActed,
    AssaultMade,
    ClimbDeclared,
    ClimbsLapsed,
    Event,
    FootholdTaken,
    FortificationAdded,
    GateOperated,
    GateRepairTried,
    OrderGiven,
    OrdersRevealed,
    PhaseAdvanced,
    SectionDestroyed,
    SectionSaveMade,
    StandAdded,
    StandDisembarked,
    StandEmbarked,
    StandMoved,
    StandsDestroyed,
    TurnStarted,
    WeaponFired,
)
from rules.epic.newturn import new_turn
from rules.epic.state import Embarked, EpicState, On, PendingClimb, Section, Stand
from rules.epic.tables import Order
from rules.frozen import replace

R = TypeVar("R", Stand, Section)


def evolve(state: EpicState, event: Event) -> EpicState:
    match event:
        case FortificationAdded(section=new):
            return replace(state, sections=(*_link(state.sections, new), new))
        case StandAdded(stand=new):
            return replace(state, stands=(*state.stands, new))
        case OrderGiven(target=target, order=order):
            return _sections(_stands(state, {target}, order=order), {target}, order=order)
        case OrdersRevealed(passenger_orders=orders, movement_allowances=allowances):
            return _stands(state, allowances, lambda s: _revealed(s, orders, allowances[s.id]))
        case ClimbsLapsed(stand_ids=ids):
            return _stands(state, ids, pending_climb=None)
        case TurnStarted():
            return new_turn(state)
        case PhaseAdvanced(turn=turn, phase=phase):
            return replace(state, turn=turn, phase=phase)
        case AdvanceMoverActed():
            return replace(state, advance_mover_acted=True)
        case StandMoved(stand_id=stand_id, to=to, movement_left_cm=left):
            return _stands(state, {stand_id}, location=to, movement_left_cm=left)
        case StandEmbarked(stand_id=stand_id, transport_id=transport_id):
            return _stands(state, {stand_id}, location=Embarked(transport_id=transport_id))
        case StandDisembarked(stand_id=stand_id, location=location):
            return _stands(state, {stand_id}, location=location)
        case ClimbDeclared(
            stand_id=stand_id, section_id=section_id, approach=approach, movement_left_cm=left
        ):
            pending = PendingClimb(section_id=section_id, approach=approach)
            return _stands(state, {stand_id}, pending_climb=pending, movement_left_cm=left)
        case FootholdTaken(stand_id=stand_id, section_id=section_id):
            foothold: dict[str, Any] = {
                "location": On(section_id=section_id),
                "movement_left_cm": 0,
                "climbed_this_turn": True,
            }
            return _stands(state, {stand_id}, pending_climb=None, **foothold)
        case AssaultMade(stand_id=stand_id):
            return _stands(state, {stand_id}, pending_climb=None, assaulted_this_turn=True)
        case StandsDestroyed(stand_ids=ids):
            return _stands(state, ids, destroyed=True, pending_climb=None)
        case WeaponFired(stand_ids=ids, weapon_id=weapon_id):
            return _stands(state, ids, lambda s: {"fired_weapons": (*s.fired_weapons, weapon_id)})
        case SectionSaveMade(section_id=section_id, consecutive_failed_saves=failed):
            return _sections(state, {section_id}, consecutive_failed_saves=failed)
        case SectionDestroyed(section_id=section_id):
            return _sections(state, {section_id}, status="destroyed")
        case GateOperated():
            return _sections(state, {event.gate_id}, lambda g: _operated(g, event))
        case GateRepairTried(gate_id=gate_id, repaired=repaired):
            return _sections(
                state,
                {gate_id},
                lambda g: {"repair_tried_this_turn": True, "jammed": g.jammed and not repaired},
            )
        case _:
            assert_never(event)


def _stands(
    state: EpicState,
    ids: Collection[str],
    change: Callable[[Stand], dict[str, Any]] | None = None,
    **fields: Any,
) -> EpicState:
    stands = _rebuilt(state.stands, ids, change, fields)
    return state if stands is None else replace(state, stands=stands)


def _sections(
    state: EpicState,
    ids: Collection[str],
    change: Callable[[Section], dict[str, Any]] | None = None,
    **fields: Any,
) -> EpicState:
    sections = _rebuilt(state.sections, ids, change, fields)
    return state if sections is None else replace(state, sections=sections)


def _rebuilt(
    records: tuple[R, ...], ids: Collection[str], change: Callable[[R], dict[str, Any]] | None, fields: Any
) -> tuple[R, ...] | None:
    """The records with those of `ids` changed, or None when nothing changes: the state is then kept as it
    is, since rebuilding frozen records is most of what folding costs."""
    if not ids:
        return None
    rebuilt: list[R] | None = None  # copied on the first change: most calls change one record or none
    for n, record in enumerate(records):
        if record.id in ids:
            new = _changed(record, change(record) if change else fields)
            if new is not record:
                if rebuilt is None:
                    rebuilt = list(records)
                rebuilt[n] = new
    return None if rebuilt is None else tuple(rebuilt)


def _changed(record: Any, changes: dict[str, Any]) -> Any:
    """The record with `changes`; the same record when they change nothing (folding is hot)."""
    if all(getattr(record, name) == value for name, value in changes.items()):
        return record
    return replace(record, **changes)


def _link(sections: tuple[Section, ...], new: Section) -> tuple[Section, ...]:
    """EP-FORT-02: adjacency is stored both ways."""
    return tuple(
        replace(s, adjacent=(*s.adjacent, new.id)) if s.id in new.adjacent and new.id not in s.adjacent else s
        for s in sections
    )


def _operated(gate: Section, event: GateOperated) -> dict[str, Any]:
    changes: dict[str, Any] = {"door": event.door, "jammed": event.jammed}
    changes["operations_this_turn"] = (gate.operations_this_turn or 0) + 1
    if event.performed and event.action == "open":
        changes["opened_this_turn"] = True
    if event.performed and event.action == "close":
        changes["closed_this_turn"] = True
    return changes


def _revealed(stand: Stand, orders: Mapping[str, Order | None], allowance: int) -> dict[str, Any]:
    return {"order": orders.get(stand.id, stand.order), "movement_left_cm": allowance}
