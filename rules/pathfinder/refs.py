"""The ids each command names (checked first: `unknown_entity`, `duplicate_id`, §2) — an exhaustive match."""

from __future__ import annotations

from typing import Literal, assert_never

from rules.pathfinder.commands import (
    AddCreature,
    AddStructure,
    AdvanceRound,
    Aim,
    Assemble,
    AssignCrew,
    Break,
    CastEngineSpell,
    Command,
    Crush,
    Disable,
    DislodgeCorvus,
    Fire,
    Load,
    MoveCreature,
    MoveEngine,
    Observe,
    OperateGate,
    PlaceEngine,
    RaiseBridge,
    Ram,
    Repair,
    SetWind,
    UseCorvus,
)
from rules.pathfinder.state import Target

RefKind = Literal["creature", "engine", "structure", "any"]
Ref = tuple[RefKind, str]


def _target(target: Target | None) -> list[Ref]:
    if target is None or target.kind == "square" or target.id is None:
        return []
    return [(target.kind, target.id)]


def _all(kind: RefKind, ids: tuple[str, ...] | None) -> list[Ref]:
    return [(kind, i) for i in ids or ()]


def _opt(kind: RefKind, ident: str | None) -> list[Ref]:
    return [] if ident is None else [(kind, ident)]


def references(command: Command) -> list[Ref]:
    """Existing entities the command names, each of the kind it must be."""
    match command:
        case AdvanceRound() | SetWind():
            return []
        case AddCreature():
            return _opt("engine", command.inside.engine_id if command.inside else None)
        case MoveCreature():
            inside = command.inside if command.inside not in (None, "unchanged") else None
            return [("creature", command.creature_id), *_opt("engine", getattr(inside, "engine_id", None))]
        case PlaceEngine():
            return _target(command.state.aimed_at)
        case AddStructure():
            return _opt("structure", command.stacked_on)
        case AssignCrew():
            return [
                ("engine", command.engine_id),
                *_all("creature", command.creature_ids),
                ("creature", command.leader_id),
            ]
        case CastEngineSpell() | MoveEngine() | UseCorvus():
            return [("engine", command.engine_id)]
        case Assemble():
            return [
                ("engine", command.engine_id),
                *_all("creature", command.worker_ids),
                *_opt("creature", command.leader_id),
            ]
        case Load():
            return [
                ("engine", command.engine_id),
                *[("creature", c.creature_id) for c in command.contributors],
            ]
        case Aim():
            refs = [("engine", command.engine_id), *_target(command.target)]
            return [*refs, *[("creature", c.creature_id) for c in command.contributors]]
        case Fire():
            area = command.area.target_ids if command.area else ()
            refs = [("engine", command.engine_id), *_target(command.target), *_all("creature", area)]
            return [*refs, *_all("any", command.target_ids)]
        case Observe():
            return [("engine", command.engine_id), ("creature", command.observer_id)]
        case Repair() | Disable():
            return [("engine", command.engine_id), ("creature", command.by)]
        case Ram():
            return [("engine", command.engine_id), *_target(command.target)]
        case Break():
            return [
                ("structure", command.structure_id),
                *_opt("engine", command.engine_id),
                *_opt("creature", command.by),
            ]
        case OperateGate():
            return [("structure", command.structure_id), *_all("creature", command.contributors)]
        case RaiseBridge():
            return [("engine", command.engine_id), *_all("creature", command.contributors)]
        case DislodgeCorvus():
            return [
                ("engine", command.engine_id),
                ("creature", command.by),
                *_all("creature", command.occupant_ids),
            ]
        case Crush():
            return [("engine", command.engine_id), *_all("creature", command.target_ids)]
        case _:
            assert_never(command)


def new_ids(command: Command) -> list[str]:
    """Ids a command creates; they must be unused across the battle."""
    if isinstance(command, (AddCreature, PlaceEngine, AddStructure)):
        return [command.id]
    return []
