"""Engine statistics: AC, hardness and hp (PF-DEF-01..05), prices (PF-MAGIC-01/02/06, PF-DEF-04), Craft DC
(PF-BUILD-01), speed (PF-MOVE-03/04, PF-ASSAULT-08/09) and misfire range (PF-MISFIRE-01/02)."""

from __future__ import annotations

from fractions import Fraction

from rules.pathfinder.board import crew_of, leader_of, spec_of
from rules.pathfinder.catalog import EngineSpec
from rules.pathfinder.crew_status import equivalents
from rules.pathfinder.results import CostBreakdown
from rules.pathfinder.rolls import Mod, mods
from rules.pathfinder.sizes import size_modifier
from rules.pathfinder.state import Armor, Engine, PfState

ARMOR_SIZE_MULTIPLIER = {"L": 2, "H": 4, "G": 8, "C": 16}


def armor_value(armor: Armor | None) -> int:
    return armor.armor_bonus + armor.enhancement if armor else 0


def ac_breakdown(size: str, armor: Armor | None) -> tuple[Mod, ...]:
    """PF-DEF-01/03: base 5 (10 − 5 for Dex 0), size, armor; zero terms omitted."""
    return mods(("base", 5), ("size", size_modifier(size)), ("armor", armor_value(armor)))


def engine_ac(size: str, armor: Armor | None) -> int:
    return 5 + size_modifier(size) + armor_value(armor)


def engine_hardness(base: int, armor: Armor | None) -> int:
    """PF-DEF-03: armor raises hardness to at least 10 (metal) or 5."""
    if armor is None:
        return base
    return max(base, 10 if armor.metal else 5)


def engine_max_hp(base_hp: int, armor: Armor | None) -> int:
    return base_hp + 5 * armor_value(armor)


def craft_dc(masterwork: bool) -> int:
    return 25 if masterwork else 20


def enchantment_price(price_bonus: int) -> int:
    """PF-MAGIC-02: twice the weapon price, 2 × 2,000 × p²."""
    return 2 * 2000 * price_bonus * price_bonus


def armor_price(size: str, armor: Armor | None) -> int:
    """PF-DEF-04: base × size multiplier, + 150 masterwork, + 2,000 × enhancement² (not multiplied)."""
    if armor is None:
        return 0
    masterwork = 150 if armor.masterwork else 0
    return armor.base_price_gp * ARMOR_SIZE_MULTIPLIER[size] + masterwork + 2 * 1000 * armor.enhancement**2


def cost_breakdown(spec: EngineSpec, engine: Engine) -> CostBreakdown:
    return CostBreakdown(
        base=spec.cost_gp or 0,
        masterwork=300 if engine.masterwork else 0,
        enchantment=enchantment_price(engine.enchantment_price_bonus),
        armor=armor_price(engine.size, engine.armor),
    )


def half_speed(speed: int) -> int:
    """PF-MOVE-04: rounded down to a multiple of 5 ft."""
    return 5 * (speed // 10)


def speed_ft(state: PfState, engine: Engine, *, assume_full_crew: bool = False) -> int | None:
    """PF-MOVE-03/04, PF-ASSAULT-08/09: the engine's speed now (or with a full crew), None when unknown."""
    spec = spec_of(engine)
    armored = engine.armor is not None and engine.armor.category in ("medium", "heavy")
    if spec.family == "ladder_escalade":
        crew = crew_of(state, engine)
        if assume_full_crew or not crew:
            return None
        speed: int | None = min(c.speed_ft for c in crew)
    elif spec.family == "gallery":
        speed = _gallery_speed(state, engine, armored, assume_full_crew)
    elif spec.family == "siege_tower" and armored:
        speed = 10
    else:
        speed = spec.speed_ft
    if speed is None:
        return None
    return half_speed(speed) if engine.broken else speed


def _gallery_speed(state: PfState, engine: Engine, armored: bool, assume_full_crew: bool) -> int:
    """PF-ASSAULT-08: 15 ft (10 armored) with a full crew, 5 ft with at least half, 0 below."""
    full = 10 if armored else 15
    if assume_full_crew:
        return full
    required = Fraction(spec_of(engine).crew or 0)
    crew = equivalents(state, engine)
    if crew >= required:
        return full
    return 5 if crew * 2 >= required else 0


def misfire_max(state: PfState, engine: Engine, *, with_leader: bool = True) -> int | None:
    """PF-MISFIRE-01/02: the catalog range, +4 while broken (+2 with gun training under the option)."""
    base = spec_of(engine).misfire_max
    if base is None:
        return None
    if not engine.broken:
        return base
    leader = leader_of(state, engine) if with_leader else None
    trained = (
        state.options.gun_training_on_siege_firearms
        and leader is not None
        and "gun_training" in leader.features
    )
    return base + (2 if trained else 4)
