"""The commands of spec §3, one frozen record each: the one declaration of a command's fields, the ids it
names and acts with, its phases and dice (rules/declare.py). Everything else is derived from these."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.declare import CommandRecord, command, command_table, wire
from rules.epic import results
from rules.epic.state import Location
from rules.epic.tables import (
    CLOSE_COMBAT,
    END,
    GATE_PHASES,
    MOVEMENT,
    ORDERS,
    SHOOTING,
    Order,
    SectionKind,
    Side,
    StandType,
)

GROUND = ("outside", "at_foot", "on", "inside")  # where `move` may go: boarding is `embark`


@command(
    "advance_phase",
    result=results.PhaseAdvance,
    doc="Ends the current phase and starts the next (EP-TIME-01).",
    dice=("jam",),
    referee=True,
)
@dataclass(frozen=True, slots=True, kw_only=True)
class AdvancePhase(CommandRecord):
    pass


@command(
    "add_fortification",
    result=results.FortificationPlaced,
    doc="Adds a section of the fortress: wall, tower, gate or blockhouse (EP-FORT-01).",
    referee=True,
    example={"id": "E1", "kind": "wall"},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class AddFortification(CommandRecord):
    id: str = field(metadata=wire(new=True))
    kind: SectionKind
    capacity: int | None = field(
        default=None,
        metadata=wire(minimum=1, maximum=100, omit_only=True, default_from="option default_section_capacity"),
    )
    adjacent: tuple[str, ...] = field(default=(), metadata=wire(ref="section"))
    door: Literal["closed", "open"] | None = field(
        default=None, metadata=wire(omit_only=True, doc="gates only; closed when omitted")
    )
    status: Literal["intact", "destroyed"] = "intact"
    consecutive_failed_saves: int = field(default=0, metadata=wire(minimum=0, maximum=1))
    jammed: bool | None = field(
        default=None, metadata=wire(omit_only=True, doc="gates only; false when omitted")
    )

    def invalid(self) -> bool:
        gate_fields_on_other = self.kind != "gate" and (self.door is not None or self.jammed is not None)
        return gate_fields_on_other or self.id in self.adjacent or _repeats(self.adjacent)


@command(
    "add_stand",
    result=results.StandPlaced,
    doc="Places a stand: infantry, war engine, vehicle or transport war engine (spec §3.3).",
    example={
        "id": "csm",
        "stand_type": "infantry",
        "side": "attacker",
        "caf": 3,
        "speed_cm": 10,
        "location": {"kind": "at_foot", "section_id": "E1"},
    },
)
@dataclass(frozen=True, slots=True, kw_only=True)
class AddStand(CommandRecord):
    id: str = field(metadata=wire(new=True))
    stand_type: StandType
    side: Side = field(metadata=wire(side=True))
    caf: int = field(metadata=wire(minimum=0, maximum=20))  # a titan's is below 12
    has_cc_weapon: bool = False
    capacity: int = field(default=0, metadata=wire(minimum=0, maximum=100, doc="transports only"))
    speed_cm: int = field(metadata=wire(minimum=0, maximum=500))
    save: int | None = field(default=None, metadata=wire(minimum=2, maximum=6))
    location: Location

    def invalid(self) -> bool:
        self_carried = self.location.kind == "embarked" and self.location.transport_id == self.id
        return (self.capacity > 0 and self.stand_type != "transport_war_engine") or self_carried


@command(
    "give_order",
    result=results.Ordered,
    doc="Gives a stand or a gate its secret order for the turn (EP-ORDER-01).",
    phases=ORDERS,
    example={"stand_id": "csm", "order": "charge"},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class GiveOrder(CommandRecord):
    """Exactly one of `stand_id` and `gate_id`; both or neither is the rules' `invalid_field`."""

    stand_id: str | None = field(default=None, metadata=wire(ref="stand", acts=True, omit_only=True))
    gate_id: str | None = field(default=None, metadata=wire(ref="gate", acts=True, omit_only=True))
    order: Order

    def invalid(self) -> bool:
        return (self.stand_id is None) == (self.gate_id is None)


@command(
    "move",
    result=results.Moved,
    doc="Moves a stand on the ground, through a gate or a breach (EP-MOVE-01..04).",
    phases=MOVEMENT,
    example={"stand_id": "csm", "to": {"kind": "at_foot", "section_id": "E1"}, "distance_cm": 5},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Move(CommandRecord):
    stand_id: str = field(metadata=wire(ref="stand", acts=True))
    to: Location = field(metadata=wire(choices=GROUND))
    distance_cm: int = field(metadata=wire(minimum=0, maximum=1000))
    via: str | None = field(
        default=None, metadata=wire(ref="section", doc="required to cross between outside and inside")
    )


@command(
    "embark",
    result=results.Boarding,
    doc="Boards a transport at the same location (EP-TOWER-01).",
    phases=MOVEMENT,
    example={"stand_id": "csm", "transport_id": "tower"},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Embark(CommandRecord):
    stand_id: str = field(metadata=wire(ref="stand", acts=True))
    transport_id: str = field(metadata=wire(ref="transport"))

    def invalid(self) -> bool:
        return self.stand_id == self.transport_id


@command(
    "disembark",
    result=results.Boarding,
    doc="Leaves the transport the stand is aboard (EP-TOWER-01).",
    phases=MOVEMENT,
    example={"stand_id": "csm"},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Disembark(CommandRecord):
    stand_id: str = field(metadata=wire(ref="stand", acts=True))


@command(
    "climb",
    result=results.ClimbMade,
    doc="Declares a climb onto a section: a foothold at once, or a fight in close combat (EP-CLIMB).",
    phases=MOVEMENT,
    example={"stand_id": "csm", "section_id": "E1"},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Climb(CommandRecord):
    stand_id: str = field(metadata=wire(ref="stand", acts=True))
    section_id: str = field(metadata=wire(ref="section"))


@command(
    "assault",
    result=results.AssaultResolved,
    doc="Resolves a pending climb or a war engine's assault on a section (EP-ASSAULT, EP-WARENGINE-01).",
    phases=CLOSE_COMBAT,
    dice=("attacker", "defender"),
    example={"stand_id": "csm", "section_id": "E1", "dice": {"attacker": [6, 6], "defender": [1, 2]}},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Assault(CommandRecord):
    stand_id: str = field(metadata=wire(ref="stand", acts=True))
    section_id: str = field(metadata=wire(ref="section"))
    defender_id: str | None = field(
        default=None, metadata=wire(ref="stand", doc="the defender fought; ignored without a fight")
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Weapon:
    id: str
    to_hit: int = field(metadata=wire(minimum=2, maximum=6))
    save_modifier: int = field(default=0, metadata=wire(maximum=0))


@dataclass(frozen=True, slots=True, kw_only=True)
class FireTarget:
    """`{section_id}` or `{stand_id}`: both or neither is the rules' `invalid_field`, not a schema error."""

    section_id: str | None = field(default=None, metadata=wire(ref="section", omit_only=True))
    stand_id: str | None = field(default=None, metadata=wire(ref="stand", omit_only=True))


@command(
    "fire",
    result=results.Shot,
    doc="One stand shoots one weapon at a section or a stand (EP-SHOOT, EP-SAVE).",
    phases=SHOOTING,
    dice=("to_hit", "save", "unit_save"),
    example={
        "stand_id": "reaver",
        "weapon": {"id": "gatling", "to_hit": 4},
        "target": {"section_id": "G1"},
        "dice": {"to_hit": [5], "save": [1, 2]},
    },
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Fire(CommandRecord):
    stand_id: str = field(metadata=wire(ref="stand", acts=True))
    weapon: Weapon
    target: FireTarget

    def invalid(self) -> bool:
        return (self.target.section_id is None) == (self.target.stand_id is None)


@command(
    "barrage",
    result=results.BarrageFired,
    doc="Stands fire one barrage at stands and sections (EP-BARRAGE).",
    phases=SHOOTING,
    dice=("to_hit", "save", "unit_save"),
    example={
        "stand_ids": ["basilisk"],
        "weapon_id": "earthshaker",
        "barrage_points": 3,
        "kind": "direct",
        "target_section_ids": ["E1"],
    },
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Barrage(CommandRecord):
    """Both target lists empty is the rules' `invalid_field` (a combination of fields)."""

    stand_ids: tuple[str, ...] = field(metadata=wire(ref="stand", acts=True, min_items=1, unique=True))
    weapon_id: str
    barrage_points: int = field(metadata=wire(minimum=1, maximum=100))
    kind: Literal["direct", "indirect"]
    save_modifier: int = field(default=0, metadata=wire(maximum=0))
    target_stand_ids: tuple[str, ...] = field(default=(), metadata=wire(ref="stand"))
    target_section_ids: tuple[str, ...] = field(default=(), metadata=wire(ref="section"))
    spotter_id: str | None = field(default=None, metadata=wire(ref="any"))

    def invalid(self) -> bool:
        no_target = not self.target_stand_ids and not self.target_section_ids
        repeats = _repeats(self.target_stand_ids) or _repeats(self.target_section_ids)
        return no_target or repeats  # stand_ids repeats are refused with the record (unique)


@command(
    "operate_gate",
    result=results.GateWorked,
    doc="Opens or closes a gate under its order (EP-GATE-02..04).",
    phases=GATE_PHASES,
    dice=("jam",),
    example={"gate_id": "G1", "action": "open", "dice": {"jam": [3]}},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class OperateGate(CommandRecord):
    gate_id: str = field(metadata=wire(ref="gate", acts=True))
    action: Literal["open", "close"]


@command(
    "repair",
    result=results.RepairTried,
    doc="Tries to free a jammed gate in the end phase (EP-GATE-05).",
    phases=END,
    dice=("repair",),
    example={"gate_id": "G1", "dice": {"repair": [5]}},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Repair(CommandRecord):
    gate_id: str = field(metadata=wire(ref="gate", acts=True))


def _repeats(ids: tuple[str, ...]) -> bool:
    return len(set(ids)) != len(ids)


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

COMMANDS: dict[str, type[Command]] = command_table(
    AdvancePhase,
    AddFortification,
    AddStand,
    GiveOrder,
    Move,
    Embark,
    Disembark,
    Climb,
    Assault,
    Fire,
    Barrage,
    OperateGate,
    Repair,
)
