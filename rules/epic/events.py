"""What happened, in the past tense: the only things `evolve` applies to the state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from rules.epic.state import Location, Section, Stand
from rules.epic.tables import Approach, Order, Phase
from rules.events import event


@event("FortificationAdded")
@dataclass(frozen=True, slots=True, kw_only=True)
class FortificationAdded:
    section: Section


@event("StandAdded")
@dataclass(frozen=True, slots=True, kw_only=True)
class StandAdded:
    stand: Stand


@event("OrderGiven")
@dataclass(frozen=True, slots=True, kw_only=True)
class OrderGiven:
    target: str
    order: Order


@event("OrdersRevealed")
@dataclass(frozen=True, slots=True, kw_only=True)
class OrdersRevealed:
    """Leaving the orders phase: passengers take their transport's order, allowances are set."""

    passenger_orders: Mapping[str, Order | None]
    movement_allowances: Mapping[str, int]


@event("ClimbsLapsed")
@dataclass(frozen=True, slots=True, kw_only=True)
class ClimbsLapsed:
    stand_ids: tuple[str, ...]


@event("TurnStarted")
@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStarted:
    turn: int


@event("PhaseAdvanced")
@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseAdvanced:
    turn: int
    phase: Phase


@event("AdvanceMoverActed")
@dataclass(frozen=True, slots=True, kw_only=True)
class AdvanceMoverActed:
    """EP-MOVE-03: from now on this movement phase, Charge-order stands may no longer move."""


@event("StandMoved")
@dataclass(frozen=True, slots=True, kw_only=True)
class StandMoved:
    stand_id: str
    to: Location
    movement_left_cm: int


@event("StandEmbarked")
@dataclass(frozen=True, slots=True, kw_only=True)
class StandEmbarked:
    stand_id: str
    transport_id: str


@event("StandDisembarked")
@dataclass(frozen=True, slots=True, kw_only=True)
class StandDisembarked:
    stand_id: str
    location: Location


@event("ClimbDeclared")
@dataclass(frozen=True, slots=True, kw_only=True)
class ClimbDeclared:
    stand_id: str
    section_id: str
    approach: Approach
    movement_left_cm: int


@event("FootholdTaken")
@dataclass(frozen=True, slots=True, kw_only=True)
class FootholdTaken:
    stand_id: str
    section_id: str


@event("AssaultMade")
@dataclass(frozen=True, slots=True, kw_only=True)
class AssaultMade:
    stand_id: str
    section_id: str
    kind: Literal["war_engine", "undefended_climb", "fight", "automatic"]
    result: str


@event("StandsDestroyed")
@dataclass(frozen=True, slots=True, kw_only=True)
class StandsDestroyed:
    stand_ids: tuple[str, ...]


@event("WeaponFired")
@dataclass(frozen=True, slots=True, kw_only=True)
class WeaponFired:
    stand_ids: tuple[str, ...]
    weapon_id: str


@event("SectionSaveMade")
@dataclass(frozen=True, slots=True, kw_only=True)
class SectionSaveMade:
    section_id: str
    success: bool
    consecutive_failed_saves: int


@event("SectionDestroyed")
@dataclass(frozen=True, slots=True, kw_only=True)
class SectionDestroyed:
    section_id: str


@event("GateOperated")
@dataclass(frozen=True, slots=True, kw_only=True)
class GateOperated:
    gate_id: str
    action: Literal["open", "close"]
    performed: bool
    jammed: bool
    door: Literal["closed", "open"]
    automatic: bool = False


@event("GateRepairTried")
@dataclass(frozen=True, slots=True, kw_only=True)
class GateRepairTried:
    gate_id: str
    repaired: bool


Event = (
    FortificationAdded
    | StandAdded
    | OrderGiven
    | OrdersRevealed
    | ClimbsLapsed
    | TurnStarted
    | PhaseAdvanced
    | AdvanceMoverActed
    | StandMoved
    | StandEmbarked
    | StandDisembarked
    | ClimbDeclared
    | FootholdTaken
    | AssaultMade
    | StandsDestroyed
    | WeaponFired
    | SectionSaveMade
    | SectionDestroyed
    | GateOperated
    | GateRepairTried
)
