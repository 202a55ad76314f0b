"""The pathfinder battle state (spec §0): creatures, engines, structures, squares and schedule.

Entities live in tuples, in creation (placement) order: PF-GEN-09 and PF-INDIRECT-07 list and roll by that
order, and a tuple keeps it through every JSON round trip (a dict would not survive key-sorted storage).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.declare import wire
from rules.pathfinder.sizes import Size

Wind = Literal["none", "light", "moderate", "strong", "severe", "windstorm", "storm", "hurricane", "tornado"]
Level = Literal["lower", "upper"]
TargetKind = Literal["creature", "engine", "structure", "square"]
EntityKind = Literal["creature", "engine", "structure"]
ScheduledKind = Literal[
    "assembly", "assembly_retry_open", "disable", "sabotage_failure", "repair", "spell_expiry"
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Square:
    """A PF-GEN-04 grid square; the grid has no edge, so any integers."""

    x: int
    y: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Target:
    """What an engine aims at or attacks: an entity (by kind and id) or a square (PF-AIM-01)."""

    kind: TargetKind
    id: str | None = field(default=None, metadata=wire(ref_from="kind"))
    square: Square | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """The house rules of §5, fixed at creation (PF-GEN-02)."""

    crew_equivalence: Literal["aon", "printed"] = field(
        default="aon", metadata=wire(doc="PF-CREW-02: crew equivalents by the AoN table or the printed one")
    )
    diminished_doubles_load: bool = field(
        default=False,
        metadata=wire(doc="PF-CREW-04, PF-LOAD-01: a diminished crew doubles the load requirement"),
    )
    diminished_crew_can_move: bool = field(
        default=False, metadata=wire(doc="PF-CREW-04: a diminished crew may move the engine")
    )
    max_range_increments: int = field(
        default=10, metadata=wire(doc="PF-AIM-05: the farthest range increment", minimum=1, maximum=50)
    )
    targeting_platform: bool = field(
        default=False, metadata=wire(doc="PF-DIRECT-02: targeting platforms are in play")
    )
    ram_always_nonproficient: bool = field(
        default=False, metadata=wire(doc="PF-ASSAULT-01: rams always take the nonproficiency penalty")
    )
    gun_training_on_siege_firearms: bool = field(
        default=False, metadata=wire(doc="PF-MISFIRE-02: Gun Training applies to siege firearms")
    )
    field_repair_light_ranged_dc: int = field(
        default=30, metadata=wire(doc="PF-REPAIR-02: the Field Repair DC for light ranged engines")
    )
    validate_feat_prerequisites: bool = field(
        default=True, metadata=wire(doc="PF-FEAT-01: add_creature checks feat prerequisites")
    )


# --- creatures -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Saves:
    fort: int = 0
    ref: int = 0
    will: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Skill:
    ranks: int = field(default=0, metadata=wire(minimum=0))
    modifier: int = field(default=0, metadata=wire(doc="may be given with 0 ranks"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Skills:
    craft_siege_engine: Skill = Skill()
    disable_device: Skill = Skill()
    knowledge_engineering: Skill = Skill()
    profession_siege_engineer: Skill = Skill()


@dataclass(frozen=True, slots=True, kw_only=True)
class Inside:
    engine_id: str = field(metadata=wire(ref="engine"))
    level: Level | None = field(default=None, metadata=wire(doc="towers: required; galleries: ignored"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Actions:
    """What is still available this round (PF-TIME-02)."""

    standard: bool = True
    move: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Creature:
    id: str
    size: Size
    ac: int
    touch_ac: int
    hp: int
    max_hp: int
    speed_ft: int = 30
    bab: int = 0
    str_mod: int = 0
    dex_mod: int = 0
    int_mod: int = 0
    saves: Saves = Saves()
    skills: Skills = Skills()
    feats: tuple[str, ...] = ()
    bonus_feats: tuple[str, ...] = ()
    proficiencies: tuple[str, ...] = ()
    features: tuple[str, ...] = ()
    position: Square
    inside: Inside | None = None
    side: str | None = None
    crewing: str | None = None  # the engine whose crew it belongs to (PF-CREW-01)
    actions: Actions = Actions()
    busy_until_round: int | None = None  # busy while round < this (PF-TIME-04)
    conditions: tuple[str, ...] = ()

    def has_feat(self, feat: str) -> bool:
        """Bonus feats count as feats (PF-FEAT-01)."""
        return feat in self.feats or feat in self.bonus_feats

    @property
    def down(self) -> bool:
        return self.hp <= 0 or "down" in self.conditions


# --- engines -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Armor:
    """PF-DEF-03; shields are not armor. Enhancement without masterwork is the rules' `not_masterwork`."""

    armor_bonus: int = field(metadata=wire(minimum=0))
    enhancement: int = field(default=0, metadata=wire(minimum=0))
    category: Literal["light", "medium", "heavy"]
    metal: bool
    masterwork: bool = False
    base_price_gp: int = field(metadata=wire(minimum=0))


@dataclass(frozen=True, slots=True, kw_only=True)
class RamSetup:
    improvised: bool = False
    gallery_ram: bool = False
    ram_head: Literal["none", "pick", "screw"] = "none"


@dataclass(frozen=True, slots=True, kw_only=True)
class Successive:
    """Successive-shot state for the current aimed square (PF-INDIRECT-05)."""

    seen_misses: int = field(default=0, metadata=wire(minimum=0))
    unseen_misses: int = field(default=0, metadata=wire(minimum=0))
    reported_misses: int = field(default=0, metadata=wire(minimum=0))
    hit: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineSpell:
    spell: Literal["magic_siege_engine", "greater_magic_siege_engine"]
    bonus: int
    cast_round: int
    expires_at_round: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Corvus:
    deployed: bool = False
    needs_reset: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Bridge:
    """Assault bridge progress (PF-ASSAULT-05), in 1/256 units so ½ⁿ contributions stay exact integers."""

    progress_256ths: int = 0
    raised: bool = False
    contributors_this_round: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Engine:
    id: str
    catalog_id: str
    position: Square
    side: str | None = None
    size: Size
    # statistics fixed at placement (PF-DEF-01..04, PF-DEF-02 overrides)
    ac: int
    hardness: int
    max_hp: int
    hp: int
    targeting_dc: int | None = None
    masterwork: bool = False
    enhancement: int = 0
    enchantment_price_bonus: int = 0
    armor: Armor | None = None
    targeting_platform: bool = field(
        default=False, metadata=wire(doc="PF-DIRECT-02: targeting platforms are in play")
    )
    ram: RamSetup | None = None  # rams only
    assembled: bool = True
    # crew (PF-CREW-01)
    crew_ids: tuple[str, ...] = ()
    leader_id: str | None = None
    # load and aim (PF-LOAD, PF-AIM, PF-INDIRECT-05)
    load_progress: int = 0
    loaded: bool = False
    ammunition: str | None = None  # the ammunition of the current loading cycle
    aim_target: Target | None = None
    aim_progress: int = 0
    successive: Successive = Successive()
    # condition flags (PF-DEF-05/06, PF-DISABLE)
    broken_by_mishap: bool = False
    disabled: bool = False
    sabotaged: bool = False
    sabotage_triggered: bool = False  # the first use after sabotage has drawn its minutes (PF-DISABLE-02)
    destroyed: bool = False
    busy_until_round: int | None = None  # assembly or repair under way (PF-TIME-04)
    assembly_blocked_until_round: int | None = None  # assembly under way or the hour after a failure
    spell: EngineSpell | None = None  # PF-MAGIC-04
    corvus: Corvus | None = None  # corvus only
    bridge: Bridge | None = None  # assault bridges only
    conditions: tuple[str, ...] = ()  # tags such as on_fire (PF-GEN-11)

    @property
    def broken(self) -> bool:
        """PF-DEF-05: broken by a mishap or misfire, or at half hit points or less."""
        return self.broken_by_mishap or self.hp * 2 <= self.max_hp


# --- structures ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Structure:
    id: str
    kind: Literal["wall", "gate", "building"]
    material: Literal["wood", "stone", "iron", "adamantine", "earth"]
    size: Size | None = None  # gates and buildings
    position: Square
    stacked_on: str | None = None  # wall squares (PF-STRUCT-04)
    ac: int
    hardness: int  # before halving for broken (PF-STRUCT-05)
    max_hp: int
    hp: int
    break_dc: int | None = None
    break_dc_suspect: bool = False
    magic_treated: bool = False
    flimsy: bool = False
    arcane_lock: bool = False
    broken: bool = False
    breached: bool = False
    destroyed: bool = False
    open: bool | None = None  # gates only
    gate_progress: int = 0
    gate_operators_this_round: int = 0
    conditions: tuple[str, ...] = ()

    @property
    def effective_hardness(self) -> int:
        return self.hardness // 2 if self.broken else self.hardness


# --- battle --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class SquareCondition:
    square: Square
    condition: str  # fog_cloud


@dataclass(frozen=True, slots=True, kw_only=True)
class Scheduled:
    """An effect due when round `due_round` begins (PF-TIME-03); `detail`: disable mode or repair kind."""

    seq: int
    due_round: int
    kind: ScheduledKind
    entity_id: str
    detail: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PfState:
    round: int = 1
    wind: Wind = "none"
    options: Options = Options()
    creatures: tuple[Creature, ...] = ()
    engines: tuple[Engine, ...] = ()
    structures: tuple[Structure, ...] = ()
    square_conditions: tuple[SquareCondition, ...] = ()
    schedule: tuple[Scheduled, ...] = ()
    next_seq: int = 0
