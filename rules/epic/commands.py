"""The commands of spec §3, one frozen record each, and `parse`, which applies the spec's defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from rules.codec import JSON
from rules.epic.state import Location
from rules.epic.tables import Order, SectionKind, Side, StandType
from rules.epic.wire import build, spec
from rules.errors import Rejected


@dataclass(frozen=True, slots=True, kw_only=True)
class AdvancePhase:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class AddFortification:
    id: str
    kind: SectionKind
    # None: the battle's `default_section_capacity` (EP-FORT-02)
    capacity: int | None = field(default=None, metadata=spec(minimum=1))
    adjacent: tuple[str, ...] = ()
    # gates only; None: closed for a gate, absent for other kinds
    door: Literal["closed", "open"] | None = None
    status: Literal["intact", "destroyed"] = "intact"
    consecutive_failed_saves: int = field(default=0, metadata=spec(minimum=0, maximum=1))
    # gates only; None: false for a gate, absent for other kinds
    jammed: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AddStand:
    id: str
    stand_type: StandType
    side: Side
    caf: int = field(metadata=spec(minimum=0))
    has_cc_weapon: bool = False
    capacity: int = field(default=0, metadata=spec(minimum=0))
    speed_cm: int = field(metadata=spec(minimum=0))
    save: int | None = field(default=None, metadata=spec(minimum=2, maximum=6))
    location: Location


@dataclass(frozen=True, slots=True, kw_only=True)
class GiveOrder:
    stand_id: str | None = None
    gate_id: str | None = None
    order: Order


@dataclass(frozen=True, slots=True, kw_only=True)
class Move:
    stand_id: str
    to: Location
    distance_cm: int = field(metadata=spec(minimum=0))
    via: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Embark:
    stand_id: str
    transport_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Disembark:
    stand_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Climb:
    stand_id: str
    section_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Assault:
    stand_id: str
    section_id: str
    defender_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Weapon:
    id: str
    to_hit: int = field(metadata=spec(minimum=2, maximum=6))
    save_modifier: int = field(default=0, metadata=spec(maximum=0))


@dataclass(frozen=True, slots=True, kw_only=True)
class FireTarget:
    """Exactly one of the two ids (invalid_field otherwise)."""

    section_id: str | None = None
    stand_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Fire:
    stand_id: str
    weapon: Weapon
    target: FireTarget


@dataclass(frozen=True, slots=True, kw_only=True)
class Barrage:
    stand_ids: tuple[str, ...] = field(metadata=spec(min_items=1))
    weapon_id: str
    barrage_points: int = field(metadata=spec(minimum=1))
    kind: Literal["direct", "indirect"]
    save_modifier: int = field(default=0, metadata=spec(maximum=0))
    target_stand_ids: tuple[str, ...] = ()
    target_section_ids: tuple[str, ...] = ()
    spotter_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class OperateGate:
    gate_id: str
    action: Literal["open", "close"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Repair:
    gate_id: str


Command = (
    AdvancePhase
    | AddFortification
    | AddStand
    | GiveOrder
    | Move
    | Embark
    | Disembark
    | Climb
    | Assault
    | Fire
    | Barrage
    | OperateGate
    | Repair
)

COMMANDS: Mapping[str, type] = {
    "advance_phase": AdvancePhase,
    "add_fortification": AddFortification,
    "add_stand": AddStand,
    "give_order": GiveOrder,
    "move": Move,
    "embark": Embark,
    "disembark": Disembark,
    "climb": Climb,
    "assault": Assault,
    "fire": Fire,
    "barrage": Barrage,
    "operate_gate": OperateGate,
    "repair": Repair,
}


def parse(command_type: str, data: Mapping[str, JSON]) -> Command:
    """The record for a logged command; a field the API's schema would refuse is `invalid_field`."""
    if command_type not in COMMANDS:
        raise Rejected("unknown_command")
    command: Command = build(COMMANDS[command_type], data)
    return command
