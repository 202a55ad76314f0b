"""`place_engine` (PF-ENGINE-01, PF-DEF-01..05, PF-MAGIC-01/02/06, PF-BUILD-01, PF-ASSEMBLE-05)."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder import engine_stats as stats
from rules.pathfinder.catalog import ENGINES, EngineSpec
from rules.pathfinder.commands import PlaceEngine
from rules.pathfinder.events import EnginePlaced, Event
from rules.pathfinder.results import EngineSetUp
from rules.pathfinder.sizes import Size
from rules.pathfinder.state import Bridge, Corvus, Engine, PfState, RamSetup
from rules.pathfinder.targeting import aim_mode
from rules.ruleset import Outcome

UNARMORABLE = ("ladder_escalade", "corvus")
CORVUS_SIZE: Size = "L"
CORVUS_HP = 60  # 6 squares × 10 hp (PF-ASSAULT-06)
BRIDGE_HARDNESS = 5  # wood; a guess (PF-DEF-02)


def place_engine(command: PlaceEngine, state: PfState, dice: Dice) -> Outcome[Event]:
    spec = ENGINES.get(command.catalog_id)
    if spec is None:
        raise Rejected("unknown_engine")
    if not spec.supported:
        raise Rejected("engine_not_supported")
    armor = command.armor
    if (command.enhancement > 0 and not command.masterwork) or (
        armor and armor.enhancement > 0 and not armor.masterwork
    ):
        raise Rejected("not_masterwork")
    if armor is not None and spec.family in UNARMORABLE:
        raise Rejected("cannot_be_armored")
    if missing_stat(spec, command):
        raise Rejected("missing_engine_stat")
    if invalid_field(spec, command):
        raise Rejected("invalid_field")
    engine = build_engine(spec, command)
    cost = stats.cost_breakdown(spec, engine)
    result = EngineSetUp(
        engine_id=engine.id,
        catalog_id=spec.id,
        size=engine.size,
        ac=engine.ac,
        ac_breakdown=stats.ac_breakdown(engine.size, engine.armor),
        hardness=engine.hardness,
        max_hp=engine.max_hp,
        hp=engine.hp,
        speed_ft=stats.speed_ft(state, engine, assume_full_crew=True),
        crew_required=spec.crew,
        aim=spec.aim,
        load=spec.load,
        targeting_dc=engine.targeting_dc,
        misfire_max=stats.misfire_max(state, engine, with_leader=False),
        craft_dc=stats.craft_dc(engine.masterwork),
        cost_gp=cost.total,
        cost_breakdown=cost,
        assembled=engine.assembled,
        material=spec.material,
        conditions=tuple(c for c, on in (("broken", engine.broken), ("destroyed", engine.destroyed)) if on),
    )
    return Outcome(result=result, events=(EnginePlaced(engine=engine),))


def missing_stat(spec: EngineSpec, command: PlaceEngine) -> bool:
    """PF-DEF-02: a statistic the catalog lacks and no fixed default covers must be supplied."""
    overrides = command.stat_overrides
    no_hardness = spec.hardness is None and overrides.hardness is None and spec.family != "bridge_assault"
    no_hp = spec.hp is None and overrides.hp is None and spec.family != "corvus"
    no_dc = spec.fire_mode == "indirect" and spec.targeting_dc is None and overrides.targeting_dc is None
    return no_hardness or no_hp or no_dc


def invalid_field(spec: EngineSpec, command: PlaceEngine) -> bool:
    """Fields only invalid for this engine: ram fields on a non-ram, wrong ammunition or aim target, …"""
    ram_fields = command.improvised or command.gallery_ram or command.ram_head != "none"
    if ram_fields and spec.family != "ram":
        return True
    if not 0 <= command.enhancement <= 5 or (command.enchantment_price_bonus or 0) < command.enhancement:
        return True
    if command.stat_overrides.size is not None and spec.family != "corvus":
        return True
    start = command.state
    if start.ammunition not in (spec.ammunition_ids or ("standard",)):
        return True
    if (start.loaded or start.aimed_at is not None) and not spec.is_ranged:
        return True
    if start.aimed_at is not None:
        return not spec.aim or aim_mode(spec, start.aimed_at) is None
    return False


def build_engine(spec: EngineSpec, command: PlaceEngine) -> Engine:
    """The Engine record the command describes, its statistics fixed at placement."""
    overrides = command.stat_overrides
    size: Size = overrides.size or spec.size or CORVUS_SIZE  # type: ignore[assignment]
    base_hardness = (
        overrides.hardness if overrides.hardness is not None else (spec.hardness or BRIDGE_HARDNESS)
    )
    base_hp = overrides.hp if overrides.hp is not None else (spec.hp or CORVUS_HP)
    if spec.family == "ram" and command.improvised:
        base_hp //= 2  # PF-ASSAULT-04
    max_hp = stats.engine_max_hp(base_hp, command.armor)
    start = command.state
    hp = start.hp if start.hp is not None else max_hp
    return Engine(
        id=command.id,
        catalog_id=spec.id,
        position=command.position,
        side=command.side,
        size=size,
        ac=stats.engine_ac(size, command.armor),
        hardness=stats.engine_hardness(base_hardness, command.armor),
        max_hp=max_hp,
        hp=hp,
        targeting_dc=overrides.targeting_dc if overrides.targeting_dc is not None else spec.targeting_dc,
        masterwork=command.masterwork,
        enhancement=command.enhancement,
        enchantment_price_bonus=command.enchantment_price_bonus or 0,
        armor=command.armor,
        targeting_platform=command.targeting_platform,
        ram=RamSetup(
            improvised=command.improvised, gallery_ram=command.gallery_ram, ram_head=command.ram_head
        )
        if spec.family == "ram"
        else None,
        assembled=command.assembled if command.assembled is not None else not spec.must_assemble_on_site,
        load_progress=(spec.load or 0) if start.loaded else 0,
        loaded=start.loaded,
        ammunition=start.ammunition if start.loaded else None,
        aim_target=start.aimed_at,
        aim_progress=2 * (spec.aim or 0) if start.aimed_at is not None else 0,
        successive=start.successive,
        broken_by_mishap=start.broken,
        destroyed=hp <= 0,
        corvus=Corvus() if spec.family == "corvus" else None,
        bridge=Bridge() if spec.family == "bridge_assault" else None,
    )
