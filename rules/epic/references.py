"""The ids a command names and the kind of entity each must name (spec §2 `unknown_entity`)."""

from __future__ import annotations

from typing import Literal, assert_never

from rules.epic.board import exists, find_section, find_stand
from rules.epic.commands import (
    AddFortification,
    AddStand,
    AdvancePhase,
    Assault,
    Barrage,
    Climb,
    Command,
    Disembark,
    Embark,
    Fire,
    GiveOrder,
    Move,
    OperateGate,
    Repair,
)
from rules.epic.state import EpicState, Location

Kind = Literal["stand", "section", "any"]
Reference = tuple[str | None, Kind]


def all_known(command: Command, state: EpicState) -> bool:
    return all(_known(state, entity_id, kind) for entity_id, kind in references(command))


def references(command: Command) -> list[Reference]:
    """Gate, transport and spotter ids are judged later (`not_a_gate`, `not_a_transport`, `spotter_invalid`),
    so any existing id passes here."""
    match command:
        case AddFortification(adjacent=adjacent):
            return [(a, "section") for a in adjacent]
        case AddStand(location=location):
            return _location_references(location)
        case GiveOrder(stand_id=stand_id, gate_id=gate_id):
            return [(stand_id, "stand"), (gate_id, "any")]
        case Move(stand_id=stand_id, to=to, via=via):
            return [(stand_id, "stand"), *_location_references(to), (via, "section")]
        case Embark(stand_id=stand_id, transport_id=transport_id):
            return [(stand_id, "stand"), (transport_id, "any")]
        case Disembark(stand_id=stand_id):
            return [(stand_id, "stand")]
        case Climb(stand_id=stand_id, section_id=section_id):
            return [(stand_id, "stand"), (section_id, "section")]
        case Assault(stand_id=stand_id, section_id=section_id, defender_id=defender_id):
            return [(stand_id, "stand"), (section_id, "section"), (defender_id, "stand")]
        case Fire(stand_id=stand_id, target=target):
            return [(stand_id, "stand"), (target.section_id, "section"), (target.stand_id, "stand")]
        case Barrage():
            stands: list[Reference] = [(i, "stand") for i in (*command.stand_ids, *command.target_stand_ids)]
            return [
                *stands,
                *((i, "section") for i in command.target_section_ids),
                (command.spotter_id, "any"),
            ]
        case OperateGate(gate_id=gate_id) | Repair(gate_id=gate_id):
            return [(gate_id, "any")]
        case AdvancePhase():
            return []
        case _:
            assert_never(command)


def _location_references(location: Location) -> list[Reference]:
    if location.kind in ("at_foot", "on"):
        return [(location.section_id, "section")]
    if location.kind == "embarked":
        return [(location.transport_id, "any")]
    return []


def _known(state: EpicState, entity_id: str | None, kind: Kind) -> bool:
    if entity_id is None:
        return True
    if kind == "stand":
        return find_stand(state, entity_id) is not None
    if kind == "section":
        return find_section(state, entity_id) is not None
    return exists(state, entity_id)
