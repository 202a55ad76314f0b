"""The outcome shapes of spec §2 and §3, one frozen record per command or family: what `result` holds.

Every field a command's Outcome names is present; one that does not apply is None (`null`), id lists are
tuples (`[]` when empty). `rules.codec.encode` writes them; a `json` metadata name renames a field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

from rules.codec import JSON
from rules.epic.state import Location, Stand
from rules.epic.tables import Approach, Order, Phase

# every label a modifier can carry (spec §2): `saves.modifier` takes no other, and the summaries' catalogs
# word each one for the viewer (tests/service/test_catalogs.py)
Label = Literal["caf", "fort_va", "fort_va_half", "tir_appuye", "save_modifier"]
LABELS: tuple[str, ...] = get_args(Label)


@dataclass(frozen=True, slots=True, kw_only=True)
class Modifier:
    label: str  # a Label when built by `saves.modifier`; str on the wire: a label later dropped still decodes
    value: int


def total_of(dice: tuple[int, ...], modifiers: tuple[Modifier, ...]) -> int:
    return sum(dice) + sum(m.value for m in modifiers)


@dataclass(frozen=True, slots=True, kw_only=True)
class SaveRoll:
    """A fortification or unit save (EP-GEN-04): succeeds when dice + modifiers reach the target."""

    slot: str
    dice: tuple[int, ...]
    modifiers: tuple[Modifier, ...]
    total: int
    target: int
    success: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackerRoll:
    dice: tuple[int, ...]
    modifiers: tuple[Modifier, ...]
    total: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DefenderRoll:
    stand_id: str
    dice: tuple[int, ...]
    modifiers: tuple[Modifier, ...]
    total: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ToHit:
    die: int | None
    needed: int
    malus: int
    hit: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class ClosedGate:
    gate_id: str
    jam: int
    jammed: bool
    door: Literal["closed", "open"] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class EveryResult:
    """Spec §2: every applied epic result tells the turn and phase after it and the dice it used or left."""

    turn: int
    phase: Phase
    # slot -> its values, as the dice give them (rules.dice.Dice.used and unused)
    dice_used: Mapping[str, Sequence[int]]
    unused_dice: Mapping[str, Sequence[int]]


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseAdvance:
    """§3.1 `advance_phase`."""

    turn: int
    phase_before: Phase
    phase_after: Phase
    revealed_orders: Mapping[str, Order] | None = None
    movement_allowances: Mapping[str, int] | None = None
    lapsed_climbs: tuple[str, ...] = ()
    auto_closed_gates: tuple[ClosedGate, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FortificationPlaced:
    """§3.2 `add_fortification`: the section's §0 fields plus its EP-FORT-01 statistics."""

    section: Mapping[str, JSON]


@dataclass(frozen=True, slots=True, kw_only=True)
class StandPlaced:
    """§3.3 `add_stand`."""

    stand: Stand


@dataclass(frozen=True, slots=True, kw_only=True)
class Ordered:
    """§3.4 `give_order`."""

    target: str
    order: Order


@dataclass(frozen=True, slots=True, kw_only=True)
class Moved:
    """§3.5 `move`."""

    origin: Location = field(metadata={"json": "from"})
    to: Location
    via: str | None
    distance_cm: int
    movement_left_cm: int
    passengers_moved: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Boarding:
    """§3.6 `embark` and `disembark`."""

    stand_id: str
    transport_id: str
    location: Location


AutomaticReason = Literal["held", "behind_undefended", "tower_undefended"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ClimbMade:
    """§3.7 `climb`."""

    stand_id: str
    section_id: str
    approach: Approach
    defended: bool
    result: Literal["foothold", "pending"]
    automatic_reason: AutomaticReason | None
    movement_left_cm: int
    location: Location


AssaultKind = Literal["war_engine", "undefended_climb", "fight", "automatic"]


@dataclass(frozen=True, slots=True, kw_only=True)
class AssaultResolved:
    """§3.8 `assault`: the fields that do not apply to the kind are None."""

    kind: AssaultKind
    attacker: AttackerRoll | None = None
    defender: DefenderRoll | None = None
    target: int | None = None
    approach: Approach | None
    result: str
    destroyed_stands: tuple[str, ...]
    section_destroyed: bool = False
    attacker_location: Location | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Shot:
    """§3.9 `fire`: the section-only and stand-only fields stay None for the other kind of target."""

    to_hit: ToHit
    save: SaveRoll | None = None
    consecutive_failed_saves: int | None = None
    section_destroyed: bool | None = None
    unit_save: SaveRoll | None = None
    stand_destroyed: bool | None = None
    destroyed_stands: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class StandUnderBarrage:
    stand_id: str
    needed: int
    die: int | None
    hit: bool
    unit_save: SaveRoll | None
    destroyed: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class SectionUnderBarrage:
    section_id: str
    save: SaveRoll
    consecutive_failed_saves: int
    destroyed: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class BarrageFired:
    """§3.10 `barrage`, rows in the listed order."""

    needed_base: int
    stands: tuple[StandUnderBarrage, ...]
    sections: tuple[SectionUnderBarrage, ...]
    destroyed_stands: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GateWorked:
    """§3.11 `operate_gate`."""

    gate_id: str
    order: Order | None
    action: Literal["open", "close"]
    jam: int | None
    jammed: bool
    performed: bool
    door: Literal["closed", "open"] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class RepairTried:
    """§3.12 `repair`."""

    gate_id: str
    repair: int
    repaired: bool
    jammed: bool


Result = (
    PhaseAdvance
    | FortificationPlaced
    | StandPlaced
    | Ordered
    | Moved
    | Boarding
    | ClimbMade
    | AssaultResolved
    | Shot
    | BarrageFired
    | GateWorked
    | RepairTried
)
