"""The epic battle state (spec §0): options, sections, stands and their locations, as frozen records."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from rules.declare import wire
from rules.epic.tables import Approach, Order, Phase, SectionKind, Side, StandType


@dataclass(frozen=True, slots=True, kw_only=True)
class Outside:
    kind: Literal["outside"] = "outside"


@dataclass(frozen=True, slots=True, kw_only=True)
class AtFoot:
    kind: Literal["at_foot"] = "at_foot"
    section_id: str = field(metadata=wire(ref="section"))


@dataclass(frozen=True, slots=True, kw_only=True)
class On:
    kind: Literal["on"] = "on"
    section_id: str = field(metadata=wire(ref="section"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Inside:
    kind: Literal["inside"] = "inside"


@dataclass(frozen=True, slots=True, kw_only=True)
class Embarked:
    kind: Literal["embarked"] = "embarked"
    transport_id: str = field(metadata=wire(ref="transport"))


Location = Outside | AtFoot | On | Inside | Embarked


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """The house rules of spec §5, pinned at battle creation."""

    tie_rule: Literal["none_destroyed", "both_destroyed"] = field(
        default="none_destroyed", metadata=wire(doc="EP-ASSAULT-03: what a tied fight destroys")
    )
    half_va_rounding: Literal["ceil", "floor"] = field(
        default="ceil", metadata=wire(doc="EP-BEHIND-02: how half a fortification's VA is rounded")
    )
    gate_needs_two_failures: bool = field(
        default=False, metadata=wire(doc="EP-SAVE-04: a gate falls on its second failed save, not its first")
    )
    occupants_destroyed_with_section: bool = field(
        default=False, metadata=wire(doc="EP-FORT-07: stands on a destroyed section are destroyed with it")
    )
    natural_six_always_hits: bool = field(
        default=False, metadata=wire(doc="EP-SHOOT-03: a natural 6 hits whatever the malus")
    )
    ta_bonus_only_when_closed: bool = field(
        default=False, metadata=wire(doc="EP-FORT-03: a gate's first-fire bonus only while it is closed")
    )
    default_section_capacity: int = field(
        default=1,
        metadata=wire(minimum=1, maximum=100, doc="EP-FORT-02: stands a section holds when it names none"),
    )

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any]) -> Options:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in options.items() if k in known})


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    """A piece of fortification; the gate fields are null on other kinds."""

    id: str
    kind: SectionKind
    capacity: int
    adjacent: tuple[str, ...] = ()
    status: Literal["intact", "destroyed"] = "intact"
    consecutive_failed_saves: int = 0
    door: Literal["closed", "open"] | None = None
    jammed: bool | None = None
    order: Order | None = None
    opened_this_turn: bool | None = None
    closed_this_turn: bool | None = None
    operations_this_turn: int | None = None
    repair_tried_this_turn: bool | None = None

    @property
    def intact(self) -> bool:
        return self.status == "intact"

    @property
    def is_gate(self) -> bool:
        return self.kind == "gate"


@dataclass(frozen=True, slots=True, kw_only=True)
class PendingClimb:
    """A declared climb waiting for `assault` (EP-CLIMB-04), with the approach fixed at declaration."""

    section_id: str
    approach: Approach


@dataclass(frozen=True, slots=True, kw_only=True)
class Stand:
    id: str
    stand_type: StandType
    side: Side
    caf: int
    has_cc_weapon: bool = False
    capacity: int = 0
    speed_cm: int
    save: int | None = None
    location: Location
    order: Order | None = None
    movement_left_cm: int = 0
    pending_climb: PendingClimb | None = None
    climbed_this_turn: bool = False
    assaulted_this_turn: bool = False
    fired_weapons: tuple[str, ...] = ()
    destroyed: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class EpicState:
    """Sections and stands are kept in creation order, which every id list in a result follows."""

    turn: int = 1
    phase: Phase = "orders"
    options: Options
    sections: tuple[Section, ...] = ()
    stands: tuple[Stand, ...] = ()
    # EP-MOVE-03: set once an Advance-order stand or gate has acted in this movement phase
    advance_mover_acted: bool = False
