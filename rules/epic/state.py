"""The epic battle state (spec §0): options, sections, stands and their locations, as frozen records."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from rules.epic.tables import Approach, Order, Phase, SectionKind, Side, StandType


@dataclass(frozen=True, slots=True, kw_only=True)
class Outside:
    kind: Literal["outside"] = "outside"


@dataclass(frozen=True, slots=True, kw_only=True)
class AtFoot:
    kind: Literal["at_foot"] = "at_foot"
    section_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class On:
    kind: Literal["on"] = "on"
    section_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Inside:
    kind: Literal["inside"] = "inside"


@dataclass(frozen=True, slots=True, kw_only=True)
class Embarked:
    kind: Literal["embarked"] = "embarked"
    transport_id: str


Location = Outside | AtFoot | On | Inside | Embarked


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """The house rules of spec §5, pinned at battle creation."""

    tie_rule: Literal["none_destroyed", "both_destroyed"] = "none_destroyed"
    half_va_rounding: Literal["ceil", "floor"] = "ceil"
    gate_needs_two_failures: bool = False
    occupants_destroyed_with_section: bool = False
    natural_six_always_hits: bool = False
    ta_bonus_only_when_closed: bool = False
    default_section_capacity: int = 1

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
