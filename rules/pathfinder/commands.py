"""The pathfinder commands of spec §3, one frozen record each: the one declaration of a command's fields, the
ids it names and acts with, its dice and docs (rules/declare.py). Everything else is derived from these."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.declare import CommandRecord, command, command_table, wire
from rules.pathfinder import results
from rules.pathfinder.shapes import (
    AMMUNITION_IDS,
    ANY_TARGET,
    ENTITY_TARGET,
    FEATURES,
    KNOWN_FEATS,
    PROFICIENCIES,
    SIDE,
    Area,
    Contribution,
    EngineStartState,
    EngineStatOverrides,
    StructureOverrides,
    StructureStartState,
    TelekineticAssembly,
)
from rules.pathfinder.shot import ShotResolved
from rules.pathfinder.sizes import Size
from rules.pathfinder.state import Armor, Inside, Saves, Skills, Square, Target, Wind

UNCHANGED: Literal["unchanged"] = "unchanged"
AT = {"x": 0, "y": 0}
FIRE_DICE = (  # spec §3.13, §4: every kind of shot together
    *("attack", "confirm", "targeting", "operation", "damage", "scatter_direction", "scatter_distance"),
    *("save", "explosion_damage", "explosion_reflex", "sabotage_minutes"),
)


@command(
    "advance_round",
    result=results.RoundsAdvance,
    doc="Ends rounds: budgets reset and scheduled effects complete (PF-TIME-01..04).",
    referee=True,
    example={"rounds": 5},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class AdvanceRound(CommandRecord):
    rounds: int = field(default=1, metadata=wire(minimum=1))


@command(
    "add_creature",
    result=results.CreatureJoined,
    doc="Adds a creature with its statistics, skills, feats and proficiencies (PF-GEN-08, PF-FEAT-01).",
    example={"id": "ogre", "size": "L", "ac": 17, "hp": 30, "position": {"x": 0, "y": 12}},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class AddCreature(CommandRecord):
    id: str = field(metadata=wire(new=True))
    size: Size
    ac: int
    touch_ac: int | None = field(default=None, metadata=wire(default_from="ac"))
    hp: int = field(metadata=wire(doc="also the creature's max_hp; at or below 0 it is down"))
    speed_ft: int = field(default=30, metadata=wire(minimum=0))
    bab: int = 0
    str_mod: int = 0
    dex_mod: int = 0
    int_mod: int = 0
    saves: Saves = field(default_factory=Saves)
    skills: Skills = field(default_factory=Skills)
    feats: tuple[str, ...] = field(default=(), metadata=wire(text=True, doc=KNOWN_FEATS))
    bonus_feats: tuple[str, ...] = field(
        default=(), metadata=wire(text=True, doc="count as feats, unchecked")
    )
    proficiencies: tuple[str, ...] = field(default=(), metadata=wire(choices=PROFICIENCIES))
    features: tuple[str, ...] = field(default=(), metadata=wire(choices=FEATURES))
    position: Square
    inside: Inside | None = None
    side: str | None = field(default=None, metadata=wire(side=True, doc=SIDE))


@command(
    "move_creature",
    result=results.CreatureWhereabouts,
    doc="Moves a creature, or puts it in or out of a gallery or siege tower (PF-ASSAULT-10).",
    example={"creature_id": "pusher", "inside": {"engine_id": "st4", "level": "lower"}},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class MoveCreature(CommandRecord):
    creature_id: str = field(metadata=wire(ref="creature", acts=True))
    position: Square | None = field(default=None, metadata=wire(doc="omitted or null: stays"))
    inside: Inside | Literal["unchanged"] | None = field(
        default=UNCHANGED, metadata=wire(doc="null leaves; omitted keeps")
    )


@command(
    "place_engine",
    result=results.EngineSetUp,
    doc="Places a catalog engine: masterwork, enchantment, armor, ram fittings, a starting state "
    "(PF-ENGINE-01, PF-MAGIC-02, PF-DEF-01..04, PF-ASSEMBLE-05).",
    example={
        "id": "st2",
        "catalog_id": "siege_tower_huge",
        "position": AT,
        "armor": {"armor_bonus": 6, "category": "medium", "metal": True, "base_price_gp": 200},
    },
)
@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceEngine(CommandRecord):
    """Ram fields on a non-ram, or a state that does not fit the engine, are the rules' `invalid_field`."""

    id: str = field(metadata=wire(new=True))
    catalog_id: str = field(metadata=wire(text=True, doc="a pathfinder-engines.json id"))
    position: Square
    side: str | None = field(default=None, metadata=wire(side=True, doc=SIDE))
    masterwork: bool = False
    enhancement: int = field(default=0, metadata=wire(minimum=0, maximum=5))
    enchantment_price_bonus: int | None = field(
        default=None,
        metadata=wire(minimum=0, default_from="enhancement", doc="at least enhancement (PF-MAGIC-02)"),
    )
    armor: Armor | None = None
    assembled: bool | None = field(default=None, metadata=wire(default_from="PF-ASSEMBLE-05"))
    targeting_platform: bool = False
    improvised: bool = field(default=False, metadata=wire(doc="rams only"))
    gallery_ram: bool = field(default=False, metadata=wire(doc="rams only"))
    ram_head: Literal["none", "pick", "screw"] = field(default="none", metadata=wire(doc="rams only"))
    stat_overrides: EngineStatOverrides = field(default_factory=EngineStatOverrides)
    state: EngineStartState = field(default_factory=EngineStartState)


@command(
    "add_structure",
    result=results.StructureSetUp,
    doc="Adds a wall square, gate or building (PF-STRUCT-01..04).",
    referee=True,
    example={"id": "g", "kind": "gate", "material": "wood", "size": "L", "position": {"x": 0, "y": 1}},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class AddStructure(CommandRecord):
    """`size` missing for a gate or building, or a field of another kind, is the rules' `invalid_field`."""

    id: str = field(metadata=wire(new=True))
    kind: Literal["wall", "gate", "building"]
    material: Literal["wood", "stone", "iron", "adamantine", "earth"]
    size: Size | None = field(
        default=None, metadata=wire(choices=("L", "H", "G", "C"), doc="gates and buildings: required")
    )
    position: Square | None = field(default=None, metadata=wire(doc="required unless stacked_on gives it"))
    magic_treated: bool = False
    flimsy: bool = field(default=False, metadata=wire(doc="buildings only"))
    arcane_lock: bool = field(default=False, metadata=wire(doc="gates only"))
    stacked_on: str | None = field(
        default=None, metadata=wire(ref="structure", doc="walls: the wall square directly below")
    )
    stat_overrides: StructureOverrides = field(default_factory=StructureOverrides)
    state: StructureStartState = field(default_factory=StructureStartState)


@command(
    "assign_crew",
    result=results.CrewAtWork,
    doc="Gives an engine its crew and crew leader (PF-CREW-01..05).",
    example={"engine_id": "hb", "creature_ids": ["gunner", "helper"], "leader_id": "gunner"},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class AssignCrew(CommandRecord):
    engine_id: str = field(metadata=wire(ref="engine", acts=True))
    creature_ids: tuple[str, ...] = field(metadata=wire(ref="creature", acts=True, min_items=1, unique=True))
    leader_id: str = field(metadata=wire(ref="creature", acts=True))


@command(
    "set_wind",
    result=results.WindNow,
    doc="Sets the wind (PF-GEN-12).",
    referee=True,
    example={"level": "strong"},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class SetWind(CommandRecord):
    level: Wind


@command(
    "cast_engine_spell",
    result=results.SpellCastOn,
    doc="Casts magic siege engine or its greater form on an engine (PF-MAGIC-04).",
    example={
        "engine_id": "hb",
        "spell": "greater_magic_siege_engine",
        "caster_level": 9,
        "duration_rounds": 10,
    },
)
@dataclass(frozen=True, slots=True, kw_only=True)
class CastEngineSpell(CommandRecord):
    engine_id: str = field(metadata=wire(ref="engine", acts=True))
    spell: Literal["magic_siege_engine", "greater_magic_siege_engine"]
    caster_level: int = field(metadata=wire(minimum=1, maximum=40))
    duration_rounds: int = field(metadata=wire(minimum=1, maximum=14_400))  # a day


@command(
    "assemble",
    result=results.AssemblyTried,
    doc="Workers assemble an engine, perhaps helped by telekinetic assembly (PF-ASSEMBLE-01..05).",
    dice=("check",),
    example={"engine_id": "cs", "worker_ids": ["w1", "w2", "w3"], "dice": {"check": [10, 10, 10]}},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Assemble(CommandRecord):
    """An empty worker list the spell does not cover, or a leader or taker of 10 who is not a listed worker,
    is the rules' `invalid_field` or `too_few_workers`."""

    engine_id: str = field(metadata=wire(ref="engine", acts=True))
    worker_ids: tuple[str, ...] = field(default=(), metadata=wire(ref="creature", acts=True, unique=True))
    leader_id: str | None = field(
        default=None, metadata=wire(ref="creature", acts=True, doc="a listed worker")
    )
    take_10: tuple[str, ...] = field(default=(), metadata=wire(unique=True, doc="listed workers who take 10"))
    telekinetic_assembly: TelekineticAssembly | None = None


@command(
    "move_engine",
    result=results.EngineRelocated,
    doc="Moves an engine with its crew, carried or as cargo (PF-MOVE-01..06).",
    example={"engine_id": "gal", "to": {"x": 0, "y": 3}},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class MoveEngine(CommandRecord):
    engine_id: str = field(metadata=wire(ref="engine", acts=True))
    to: Square
    carried: bool = field(default=False, metadata=wire(doc="on a vehicle (PF-MOVE-05)"))


@command(
    "load",
    result=results.LoadProgress,
    doc="Crew members load an engine (PF-LOAD-01..03, PF-AMMO-01).",
    example={"engine_id": "hb", "contributors": [{"creature_id": "gunner"}, {"creature_id": "helper"}]},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Load(CommandRecord):
    engine_id: str = field(metadata=wire(ref="engine", acts=True))
    contributors: tuple[Contribution, ...] = field(metadata=wire(min_items=1, unique_by="creature_id"))
    ammunition: str | None = field(
        default=None, metadata=wire(choices=AMMUNITION_IDS, doc="the cycle's first load chooses it")
    )


@command(
    "aim",
    result=results.AimProgress,
    doc="Crew members aim an engine at a target or a square (PF-AIM-01..05).",
    example={
        "engine_id": "hb",
        "target": {"creature_id": "ogre"},
        "contributors": [{"creature_id": "helper"}],
    },
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Aim(CommandRecord):
    engine_id: str = field(metadata=wire(ref="engine", acts=True))
    target: Target = field(metadata=wire(form=ANY_TARGET))
    contributors: tuple[Contribution, ...] = field(
        default=(), metadata=wire(unique_by="creature_id", doc="empty only selects the target")
    )


@command(
    "fire",
    result=ShotResolved,
    doc="Fires an engine: a direct, indirect, area or blast shot (PF-DIRECT, PF-INDIRECT, PF-SCATTER, "
    "PF-CRIT, PF-MISHAP, PF-MISFIRE, PF-AMMO, PF-ENGINE).",
    dice=FIRE_DICE,
    example={"engine_id": "hb", "dice": {"attack": [13], "damage": [5, 6, 2, 7]}},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Fire(CommandRecord):
    """`target` for an engine that aims, or `area` / `target_ids` missing where required or given for another
    shot, is the rules' `invalid_field`."""

    engine_id: str = field(metadata=wire(ref="engine", acts=True))
    target: Target | None = field(default=None, metadata=wire(form=ANY_TARGET, doc="aim-0 engines only"))
    line_of_sight: bool = True
    crew_sees_landing: bool | None = field(default=None, metadata=wire(default_from="line_of_sight"))
    area: Area | None = field(default=None, metadata=wire(doc="firedrake and firewyrm only"))
    target_ids: tuple[str, ...] | None = field(
        default=None, metadata=wire(ref="any", min_items=1, unique=True, doc="blast shot only")
    )
    empower_spell_level: int = field(
        default=0, metadata=wire(minimum=0, maximum=9, doc="a siege mage leader's spell level")
    )


@command(
    "observe",
    result=results.Observation,
    doc="An observer reports a missed shot's landing (PF-INDIRECT-06).",
    example={"engine_id": "lc", "observer_id": "spotter"},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Observe(CommandRecord):
    engine_id: str = field(metadata=wire(ref="engine", acts=True))
    observer_id: str = field(metadata=wire(ref="creature", acts=True))


@command(
    "repair",
    result=results.RepairTried,
    doc="A creature repairs a broken or disabled engine (PF-REPAIR-01..04).",
    dice=("check",),
    example={
        "engine_id": "lc",
        "by": "smith",
        "kind": "disabled",
        "skill": "knowledge_engineering",
        "dice": {"check": [5]},
    },
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Repair(CommandRecord):
    """`method` other than craft for `disabled`, or `skill` other than craft for `broken`: `invalid_field`."""

    engine_id: str = field(metadata=wire(ref="engine"))
    by: str = field(metadata=wire(ref="creature", acts=True))
    kind: Literal["broken", "disabled"]
    method: Literal["craft", "field_repair"] = field(default="craft", metadata=wire(doc="broken only"))
    skill: Literal["craft_siege_engine", "disable_device", "knowledge_engineering"] = field(
        default="craft_siege_engine", metadata=wire(doc="disabled only")
    )
    take_10: bool = False


@command(
    "disable",
    result=results.DisableTried,
    doc="A creature makes an engine inoperable or sabotages it (PF-DISABLE-01..03).",
    dice=("disable_rounds", "check"),
    example={
        "engine_id": "lc",
        "by": "rogue",
        "mode": "inoperable",
        "dice": {"disable_rounds": [2, 3], "check": [12]},
    },
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Disable(CommandRecord):
    engine_id: str = field(metadata=wire(ref="engine"))
    by: str = field(metadata=wire(ref="creature", acts=True))
    mode: Literal["inoperable", "sabotage"]
    take_10: bool = False


@command(
    "ram",
    result=ShotResolved,
    doc="A ram attacks a creature, engine or structure (PF-ASSAULT-01..03).",
    dice=("attack", "confirm", "damage", "sabotage_minutes"),
    example={
        "engine_id": "lr",
        "target": {"structure_id": "lg"},
        "charging": True,
        "dice": {"attack": [10], "damage": [3, 4]},
    },
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Ram(CommandRecord):
    engine_id: str = field(metadata=wire(ref="engine", acts=True))
    target: Target = field(metadata=wire(form=ENTITY_TARGET))
    charging: bool = True


@command(
    "break",
    result=results.BreakTried,
    doc="A ram or a creature tries to break a structure (PF-STRUCT-07, PF-ASSAULT-04).",
    dice=("check", "sabotage_minutes"),
    example={"structure_id": "g", "engine_id": "ram", "charging": True, "dice": {"check": [4]}},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Break(CommandRecord):
    """A ram (`engine_id`, `charging`) or a creature (`by`, `take_10`): both or neither is `invalid_field`."""

    structure_id: str = field(metadata=wire(ref="structure"))
    engine_id: str | None = field(default=None, metadata=wire(ref="engine", acts=True, doc="a ram"))
    charging: bool = field(default=True, metadata=wire(doc="with a ram only"))
    by: str | None = field(
        default=None, metadata=wire(ref="creature", acts=True, doc="a creature breaking it alone")
    )
    take_10: bool = field(default=False, metadata=wire(doc="without a ram only"))


@command(
    "operate_gate",
    result=results.GateWorked,
    doc="Creatures open or close a gate (PF-STRUCT-08).",
    example={"structure_id": "lwg", "contributors": ["p1", "p2", "p3"]},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class OperateGate(CommandRecord):
    structure_id: str = field(metadata=wire(ref="structure"))
    contributors: tuple[str, ...] = field(
        metadata=wire(ref="creature", acts=True, min_items=1, unique=True, doc="a full-round action each")
    )


@command(
    "raise_bridge",
    result=results.BridgeRaising,
    doc="Creatures raise an assault bridge (PF-ASSAULT-05).",
    example={"engine_id": "br", "contributors": ["m1", "m2", "m3", "m4"]},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class RaiseBridge(CommandRecord):
    engine_id: str = field(metadata=wire(ref="engine", acts=True))
    contributors: tuple[str, ...] = field(
        metadata=wire(ref="creature", acts=True, min_items=1, unique=True, doc="a full-round action each")
    )


@command(
    "use_corvus",
    result=results.CorvusUsed,
    doc="Drops or resets a corvus (PF-ASSAULT-06).",
    dice=("check", "sabotage_minutes"),
    example={"engine_id": "cv", "action": "drop", "dice": {"check": [6]}},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class UseCorvus(CommandRecord):
    engine_id: str = field(metadata=wire(ref="engine", acts=True))
    action: Literal["drop", "reset"]
    take_10: bool = field(default=False, metadata=wire(doc="drop only"))


@command(
    "dislodge_corvus",
    result=results.CorvusDislodged,
    doc="A creature tries to dislodge a deployed corvus, and its occupants may fall (PF-ASSAULT-07).",
    dice=("check", "save"),
    example={
        "engine_id": "cv",
        "by": "drv",
        "method": "driving",
        "driving_modifier": 12,
        "occupant_ids": ["o1", "o2", "o3"],
        "dice": {"check": [18], "save": [14, 15, 3]},
    },
)
@dataclass(frozen=True, slots=True, kw_only=True)
class DislodgeCorvus(CommandRecord):
    """`driving_modifier` missing for a driving check, or given for a Strength check, is `invalid_field`."""

    engine_id: str = field(metadata=wire(ref="engine"))
    by: str = field(metadata=wire(ref="creature", acts=True))
    method: Literal["strength", "driving"]
    driving_modifier: int | None = field(default=None, metadata=wire(doc="driving only"))
    occupant_ids: tuple[str, ...] = field(default=(), metadata=wire(ref="creature", unique=True))


@command(
    "crush",
    result=results.WheelCrushed,
    doc="A crushing wheel rolls over creatures (PF-ASSAULT-11).",
    dice=("damage", "save", "sabotage_minutes"),
    example={"engine_id": "cw", "target_ids": ["v1"], "dice": {"damage": [3, 3, 3, 3], "save": [12]}},
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Crush(CommandRecord):
    engine_id: str = field(metadata=wire(ref="engine", acts=True))
    target_ids: tuple[str, ...] = field(
        metadata=wire(ref="creature", min_items=1, unique=True, doc="creatures")
    )


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

COMMANDS: dict[str, type[Command]] = command_table(
    AdvanceRound,
    AddCreature,
    MoveCreature,
    PlaceEngine,
    AddStructure,
    AssignCrew,
    SetWind,
    CastEngineSpell,
    Assemble,
    MoveEngine,
    Load,
    Aim,
    Fire,
    Observe,
    Repair,
    Disable,
    Ram,
    Break,
    OperateGate,
    RaiseBridge,
    UseCorvus,
    DislodgeCorvus,
    Crush,
)
