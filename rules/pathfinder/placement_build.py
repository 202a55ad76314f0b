"""Building the Engine record a `place_engine` command describes (statistics fixed at placement)."""

from __future__ import annotations

from rules.pathfinder import engine_stats as stats
from rules.pathfinder.catalog import EngineSpec
from rules.pathfinder.commands import PlaceEngine
from rules.pathfinder.sizes import Size
from rules.pathfinder.state import Bridge, Corvus, Engine, RamSetup

CORVUS_SIZE: Size = "L"
CORVUS_HP = 60  # 6 squares × 10 hp (PF-ASSAULT-06)
BRIDGE_HARDNESS = 5  # wood; a guess (PF-DEF-02)


def build_engine(spec: EngineSpec, command: PlaceEngine) -> Engine:
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
