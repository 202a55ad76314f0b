"""The pathfinder commands of spec §3, one frozen record each, with the spec's field names and defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from rules.codec import JSON
from rules.errors import Rejected
from rules.pathfinder import wire_in
from rules.pathfinder.sizes import Size
from rules.pathfinder.state import Armor, Inside, Saves, Skills, Square, Successive, Target, Wind

UNCHANGED: Literal["unchanged"] = "unchanged"


@dataclass(frozen=True, slots=True, kw_only=True)
class AdvanceRound:
    rounds: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class AddCreature:
    id: str
    size: Size
    ac: int
    touch_ac: int | None = None  # parse fills it with ac
    hp: int
    speed_ft: int = 30
    bab: int = 0
    str_mod: int = 0
    dex_mod: int = 0
    int_mod: int = 0
    saves: Saves = field(default_factory=Saves)
    skills: Skills = field(default_factory=Skills)
    feats: tuple[str, ...] = ()
    bonus_feats: tuple[str, ...] = ()
    proficiencies: tuple[str, ...] = ()
    features: tuple[str, ...] = ()
    position: Square
    inside: Inside | None = None
    side: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveCreature:
    creature_id: str
    position: Square | None = None
    inside: Inside | Literal["unchanged"] | None = UNCHANGED  # null leaves; omitted keeps


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineStatOverrides:
    targeting_dc: int | None = None
    hardness: int | None = None
    hp: int | None = None
    size: Size | None = None  # corvus only


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineStartState:
    loaded: bool = False
    ammunition: str = "standard"
    aimed_at: Target | None = None
    broken: bool = False
    hp: int | None = None
    successive: Successive = field(default_factory=Successive)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceEngine:
    id: str
    catalog_id: str
    position: Square
    side: str | None = None
    masterwork: bool = False
    enhancement: int = 0
    enchantment_price_bonus: int | None = None  # parse fills it with enhancement
    armor: Armor | None = None
    assembled: bool | None = None  # None: PF-ASSEMBLE-05 default
    targeting_platform: bool = False
    improvised: bool = False
    gallery_ram: bool = False
    ram_head: Literal["none", "pick", "screw"] = "none"
    stat_overrides: EngineStatOverrides = EngineStatOverrides()
    state: EngineStartState = EngineStartState()


@dataclass(frozen=True, slots=True, kw_only=True)
class StructureOverrides:
    hardness: int | None = None
    hp: int | None = None
    break_dc: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StructureStartState:
    hp: int | None = None
    open: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class AddStructure:
    id: str
    kind: Literal["wall", "gate", "building"]
    material: Literal["wood", "stone", "iron", "adamantine", "earth"]
    size: Size | None = None
    position: Square | None = None  # may be omitted when stacked_on gives it
    magic_treated: bool = False
    flimsy: bool = False
    arcane_lock: bool = False
    stacked_on: str | None = None
    stat_overrides: StructureOverrides = StructureOverrides()
    state: StructureStartState = StructureStartState()


@dataclass(frozen=True, slots=True, kw_only=True)
class AssignCrew:
    engine_id: str
    creature_ids: tuple[str, ...]
    leader_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SetWind:
    level: Wind


@dataclass(frozen=True, slots=True, kw_only=True)
class CastEngineSpell:
    engine_id: str
    spell: Literal["magic_siege_engine", "greater_magic_siege_engine"]
    caster_level: int
    duration_rounds: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TelekineticAssembly:
    caster_level: int
    knowledge_engineering_ranks: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Assemble:
    engine_id: str
    worker_ids: tuple[str, ...] = ()
    leader_id: str | None = None
    take_10: tuple[str, ...] = ()
    telekinetic_assembly: TelekineticAssembly | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveEngine:
    engine_id: str
    to: Square
    carried: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Contribution:
    creature_id: str
    actions: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Load:
    engine_id: str
    contributors: tuple[Contribution, ...]
    ammunition: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Aim:
    engine_id: str
    target: Target
    contributors: tuple[Contribution, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Area:
    shape: Literal["line", "cone"]
    target_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Fire:
    engine_id: str
    target: Target | None = None
    line_of_sight: bool = True
    crew_sees_landing: bool | None = None  # parse fills it with line_of_sight
    area: Area | None = None
    target_ids: tuple[str, ...] | None = None
    empower_spell_level: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Observe:
    engine_id: str
    observer_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Repair:
    engine_id: str
    by: str
    kind: Literal["broken", "disabled"]
    method: Literal["craft", "field_repair"] = "craft"
    skill: Literal["craft_siege_engine", "disable_device", "knowledge_engineering"] = "craft_siege_engine"
    take_10: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Disable:
    engine_id: str
    by: str
    mode: Literal["inoperable", "sabotage"]
    take_10: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Ram:
    engine_id: str
    target: Target
    charging: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Break:
    structure_id: str
    engine_id: str | None = None
    charging: bool = True
    by: str | None = None
    take_10: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class OperateGate:
    structure_id: str
    contributors: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RaiseBridge:
    engine_id: str
    contributors: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class UseCorvus:
    engine_id: str
    action: Literal["drop", "reset"]
    take_10: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class DislodgeCorvus:
    engine_id: str
    by: str
    method: Literal["strength", "driving"]
    driving_modifier: int | None = None
    occupant_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Crush:
    engine_id: str
    target_ids: tuple[str, ...]


Command = (
    AdvanceRound
    | AddCreature
    | MoveCreature
    | PlaceEngine
    | AddStructure
    | AssignCrew
    | SetWind
    | CastEngineSpell
    | Assemble
    | MoveEngine
    | Load
    | Aim
    | Fire
    | Observe
    | Repair
    | Disable
    | Ram
    | Break
    | OperateGate
    | RaiseBridge
    | UseCorvus
    | DislodgeCorvus
    | Crush
)

# command type (spec §3 order) -> record
COMMANDS: dict[str, type[Command]] = {
    "advance_round": AdvanceRound,
    "add_creature": AddCreature,
    "move_creature": MoveCreature,
    "place_engine": PlaceEngine,
    "add_structure": AddStructure,
    "assign_crew": AssignCrew,
    "set_wind": SetWind,
    "cast_engine_spell": CastEngineSpell,
    "assemble": Assemble,
    "move_engine": MoveEngine,
    "load": Load,
    "aim": Aim,
    "fire": Fire,
    "observe": Observe,
    "repair": Repair,
    "disable": Disable,
    "ram": Ram,
    "break": Break,
    "operate_gate": OperateGate,
    "raise_bridge": RaiseBridge,
    "use_corvus": UseCorvus,
    "dislodge_corvus": DislodgeCorvus,
    "crush": Crush,
}


def parse(command_type: str, data: Mapping[str, JSON]) -> Command:
    """Build the command record, applying the spec's defaults for omitted optional fields."""
    record = COMMANDS.get(command_type)
    if record is None:
        raise Rejected("unknown_command")
    try:
        command: Command = wire_in.build(record, wire_in.normalise(data))
    except (TypeError, KeyError, ValueError, AttributeError) as error:
        raise Rejected("invalid_field") from error
    return _derived_defaults(command)


def _derived_defaults(command: Command) -> Command:
    """Defaults that copy another field: touch_ac = ac, enchantment_price_bonus = enhancement, …"""
    if isinstance(command, AddCreature) and command.touch_ac is None:
        return replace(command, touch_ac=command.ac)
    if isinstance(command, PlaceEngine) and command.enchantment_price_bonus is None:
        return replace(command, enchantment_price_bonus=command.enhancement)
    if isinstance(command, Fire) and command.crew_sees_landing is None:
        return replace(command, crew_sees_landing=command.line_of_sight)
    return command
