"""The outcome shapes of spec §3, one frozen record per command or family: what `result` holds.

Every field a command's Outcome names is present; one that does not apply is None (`null`), lists are
tuples (`[]` when empty). `rules.codec.encode` writes them; a `json` metadata name renames a field. The roll
shapes of §2 (`Check`, `Save`), damage rolls, effects, falls and ranges are the records of their own modules,
and `fire`'s and `ram`'s `ShotResolved` lives with the shot it reports (shot.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from rules.codec import JSON
from rules.pathfinder.damage import DamageRoll, Effect
from rules.pathfinder.rolls import Check, Mod, Save
from rules.pathfinder.sizes import Size
from rules.pathfinder.state import Inside, ScheduledKind, Square, Target
from rules.pathfinder.targeting import Mode, Range

Number = int | float  # an exact quantity sent as a JSON number (§2: 0.5, 4.5, 0.25)


def target_of(value: Target) -> JSON:
    """The command's own target shape: `{creature_id}`, `{engine_id}`, `{structure_id}` or `{square}`."""
    if value.kind == "square":
        return {"square": None if value.square is None else {"x": value.square.x, "y": value.square.y}}
    return {f"{value.kind}_id": value.id}


@dataclass(frozen=True, slots=True, kw_only=True)
class EveryResult:
    """PF-GEN-06: every applied pathfinder result carries its round and the supplied slots it never drew."""

    round: int
    unused_dice: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CompletedEffect:
    round: int
    kind: ScheduledKind
    entity_id: str
    effect: Mapping[str, JSON]  # the state change, one of the shapes §3.1 lists


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundsAdvance:
    """§3.1 `advance_round`."""

    round_before: int
    round_after: int
    completed: tuple[CompletedEffect, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CreatureJoined:
    """§3.2 `add_creature`."""

    creature_id: str
    proficient_with: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CreatureWhereabouts:
    """§3.3 `move_creature`: the values after the move."""

    creature_id: str
    position: Square
    inside: Inside | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CostBreakdown:
    base: int
    masterwork: int
    enchantment: int
    armor: int

    @property
    def total(self) -> int:
        return self.base + self.masterwork + self.enchantment + self.armor


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineSetUp:
    """§3.4 `place_engine`."""

    engine_id: str
    catalog_id: str
    size: Size
    ac: int
    ac_breakdown: tuple[Mod, ...]
    hardness: int
    max_hp: int
    hp: int
    speed_ft: int | None
    crew_required: int | None
    aim: int | None
    load: int | None
    targeting_dc: int | None
    misfire_max: int | None
    craft_dc: int
    cost_gp: int
    cost_breakdown: CostBreakdown
    assembled: bool
    material: str | None
    conditions: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class StructureSetUp:
    """§3.5 `add_structure`."""

    structure_id: str
    kind: str
    ac: int
    hardness: int
    max_hp: int
    hp: int
    break_dc: int | None
    break_dc_suspect: bool
    magic_cost_gp: int | None
    broken: bool
    breached: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CrewAtWork:
    """§3.6 `assign_crew` (PF-CREW-01..05)."""

    crew_equivalents: Number
    crew_status: Literal["full", "diminished", "insufficient"] | None
    aim_requirement: int | None
    load_requirement: int | None
    action_unit: Literal["full_round", "move"]
    size_penalty_helpers: int
    aim_progress: int
    aimed: bool | None


@dataclass(frozen=True, slots=True, kw_only=True)
class WindNow:
    """§3.7 `set_wind`."""

    wind: str
    siege_modifier: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SpellCastOn:
    """§3.8 `cast_engine_spell`."""

    spell_bonus: int
    effective_enhancement: int
    expires_at_round: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AssemblyTried:
    """§3.9 `assemble`."""

    required_workers: int
    replaced_by_spell: int
    checks: tuple[Check, ...]
    successful_workers: int | None  # None when the spell did the work (no checks)
    result: Literal["assembled", "assembled_double_time", "failed"]
    duration_rounds: int
    completes_at_round: int


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineRelocated:
    """§3.10 `move_engine`."""

    origin: Square = field(metadata={"json": "from"})
    to: Square
    distance_ft: int
    speed_ft: int | None
    aim_reset: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadProgress:
    """§3.11 `load`."""

    units_added: int
    load_progress: int
    load_requirement: int
    loaded: bool
    ammunition: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AimProgress:
    """§3.12 `aim`."""

    aim_target: JSON  # the command's own target shape (`target_of`)
    mode: Mode
    range: Range
    aim_progress: int
    aim_requirement: int
    aimed: bool
    reset: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class SabotageDrawn:
    """PF-DISABLE-02: the `sabotage` field of a sabotaged engine's first use."""

    minutes: int
    disabled_at_round: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Observation:
    """§3.14 `observe` (PF-INDIRECT-06)."""

    reported_now: int
    reported_misses: int
    next_successive_modifier: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RepairTried:
    """§3.15 `repair`."""

    dc: int
    check: Check
    success: bool | None
    completes_at_round: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DisableTried:
    """§3.16 `disable`."""

    rounds: int
    dc: int
    check: Check
    success: bool | None
    effective_at_round: int | None
    mode: str


@dataclass(frozen=True, slots=True, kw_only=True)
class StructureAfter:
    broken: bool
    breached: bool
    hardness: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BreakTried:
    """§3.18 `break`."""

    dc: int | None
    check: Check
    success: bool | None
    structure_after: StructureAfter
    sabotage: SabotageDrawn | None


@dataclass(frozen=True, slots=True, kw_only=True)
class GateWorked:
    """§3.19 `operate_gate`."""

    progress: int
    requirement: int
    toggled: bool
    open: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class BridgeRaising:
    """§3.20 `raise_bridge`."""

    units_added: Number
    progress: Number
    requirement: int
    raised: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CorvusUsed:
    """§3.21 `use_corvus`: `check` and `success` are null for a reset."""

    check: Check | None
    success: bool | None
    deployed: bool
    needs_reset: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class OccupantSave:
    id: str
    save: Save
    fell: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CorvusDislodged:
    """§3.22 `dislodge_corvus`."""

    dc: int
    check: Check
    success: bool | None
    margin: int
    corvus_destroyed: bool
    occupants: tuple[OccupantSave, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class WheelCrushed:
    """§3.23 `crush`."""

    damage: DamageRoll
    effects: tuple[Effect, ...]
    sabotage: SabotageDrawn | None
