"""Setup commands, accepted in any phase: `add_fortification` (EP-FORT-01/02) and `add_stand` (§3.3)."""

from __future__ import annotations

from rules.codec import JSON, encode
from rules.epic.board import find_section, find_stand, is_full, passengers
from rules.epic.commands import AddFortification, AddStand
from rules.epic.events import Event, FortificationAdded, StandAdded
from rules.epic.results import FortificationPlaced, StandPlaced
from rules.epic.state import EpicState, Section, Stand
from rules.epic.tables import FORTIFICATIONS
from rules.errors import Rejected
from rules.ruleset import Outcome


def add_fortification(command: AddFortification, state: EpicState) -> Outcome[Event]:
    gate = command.kind == "gate"
    section = Section(
        id=command.id,
        kind=command.kind,
        capacity=command.capacity or state.options.default_section_capacity,
        adjacent=command.adjacent,
        status=command.status,
        consecutive_failed_saves=command.consecutive_failed_saves,
        door=(command.door or "closed") if gate else None,
        jammed=bool(command.jammed) if gate else None,
        opened_this_turn=False if gate else None,
        closed_this_turn=False if gate else None,
        operations_this_turn=0 if gate else None,
        repair_tried_this_turn=False if gate else None,
    )
    return Outcome(
        result=FortificationPlaced(section=section_view(section)),
        events=(FortificationAdded(section=section),),
    )


def section_view(section: Section) -> dict[str, JSON]:
    """The section's §0 fields plus its EP-FORT-01 statistics."""
    stats = FORTIFICATIONS[section.kind]
    view: dict[str, JSON] = encode(section)
    return {**view, "fort_va": stats.fort_va, "save": stats.save, "malus": stats.malus}


def add_stand(command: AddStand, state: EpicState) -> Outcome[Event]:
    location = command.location
    if location.kind == "on":
        target = find_section(state, location.section_id)
        if command.stand_type != "infantry":
            raise Rejected("not_infantry")
        if target is None or is_full(state, target):
            raise Rejected("section_full")
        if not target.intact:
            raise Rejected("section_destroyed")
    if location.kind == "embarked":
        transport = find_stand(state, location.transport_id)
        if transport is None or transport.stand_type != "transport_war_engine":
            raise Rejected("not_a_transport")
        if len(passengers(state, transport.id)) >= transport.capacity:
            raise Rejected("transport_full")
    stand = Stand(
        id=command.id,
        stand_type=command.stand_type,
        side=command.side,
        caf=command.caf,
        has_cc_weapon=command.has_cc_weapon,
        capacity=command.capacity,
        speed_cm=command.speed_cm,
        save=command.save,
        location=location,
    )
    return Outcome(
        result=StandPlaced(stand=stand),
        events=(StandAdded(stand=stand),),
    )
