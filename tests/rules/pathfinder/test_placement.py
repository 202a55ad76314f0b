"""Placing engines: statistics, armor, magic, prices, defaults and refusals (§3.4, PF-ASSAULT-09/10)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.rules.pathfinder.given import ARMOR, applied, engine, rejected

rule = pytest.mark.rule

FULL_PLATE = {"armor_bonus": 9, "category": "heavy", "metal": True, "base_price_gp": 1500}
MEDIUM_METAL = {"armor_bonus": 6, "category": "medium", "metal": True, "base_price_gp": 200}


def place(rules_table: TableFactory, catalog_id: str, **fields: Any) -> dict[str, Any]:
    return applied(rules_table("pathfinder"), engine("e", catalog_id, **fields))


@pytest.mark.rule(
    "PF-MAGIC-01", "PF-MAGIC-02", "PF-MAGIC-06", "PF-DEF-01", "PF-DEF-03", "PF-DEF-04", "PF-BUILD-01"
)
def test_an_armored_enchanted_masterwork_catapult(rules_table: TableFactory) -> None:
    result = place(
        rules_table,
        "catapult_standard",
        masterwork=True,
        enhancement=1,
        enchantment_price_bonus=2,
        armor={**FULL_PLATE, "enhancement": 0, "masterwork": False},
    )
    assert (result["ac"], result["hardness"], result["max_hp"], result["hp"]) == (12, 10, 145, 145)
    assert result["ac_breakdown"] == [
        {"label": "base", "value": 5},
        {"label": "size", "value": -2},
        {"label": "armor", "value": 9},
    ]
    assert result["cost_gp"] == 23100
    assert result["cost_breakdown"] == {"base": 800, "masterwork": 300, "enchantment": 16000, "armor": 6000}
    assert (result["craft_dc"], result["assembled"], result["material"]) == (25, False, "wood")


@pytest.mark.rule("PF-MAGIC-06", "PF-DEF-04")
def test_the_same_build_on_a_gargantuan_catapult_multiplies_armor_by_eight(rules_table: TableFactory) -> None:
    result = place(
        rules_table,
        "catapult_heavy",
        masterwork=True,
        enhancement=1,
        enchantment_price_bonus=2,
        armor=FULL_PLATE,
    )
    assert (result["ac"], result["hardness"], result["max_hp"], result["cost_gp"]) == (10, 10, 245, 29300)


@pytest.mark.rule("PF-DEF-04")
def test_masterwork_and_enchanted_armor_add_unmultiplied_prices(rules_table: TableFactory) -> None:
    result = place(rules_table, "ballista_heavy", armor={**FULL_PLATE, "masterwork": True, "enhancement": 1})
    assert result["cost_breakdown"]["armor"] == 1500 * 4 + 150 + 2000
    assert (result["ac"], result["max_hp"]) == (3 + 10, 100 + 50)


@pytest.mark.rule("PF-MAGIC-02", "PF-DEF-03")
def test_enhancement_needs_masterwork_engine_or_armor(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    assert rejected(table, engine("c", "catapult_standard", enhancement=1)) == "not_masterwork"
    armor = {**FULL_PLATE, "enhancement": 1}
    assert rejected(table, engine("c", "catapult_standard", armor=armor)) == "not_masterwork"


@pytest.mark.rule("PF-MAGIC-01", "PF-MAGIC-02", "PF-MAGIC-06")
@pytest.mark.parametrize(
    ("catalog_id", "fields", "cost"),
    [
        ("ballista_light", {"masterwork": True}, 800),
        ("ballista_light", {"masterwork": True, "enhancement": 1}, 4800),
        ("catapult_standard", {"masterwork": True, "enhancement": 1}, 5100),
    ],
)
def test_masterwork_and_enchantment_prices(
    rules_table: TableFactory, catalog_id: str, fields: dict[str, Any], cost: int
) -> None:
    result = place(rules_table, catalog_id, **fields)
    assert (result["cost_gp"], result["craft_dc"]) == (cost, 25)


@pytest.mark.rule("PF-DEF-01", "PF-DEF-02", "PF-ENGINE-01")
@pytest.mark.parametrize(
    ("catalog_id", "ac"),
    [("catapult_light", 4), ("catapult_standard", 3), ("catapult_heavy", 1), ("gallery_colossal", -3)],
)
def test_engine_ac_follows_size(rules_table: TableFactory, catalog_id: str, ac: int) -> None:
    assert place(rules_table, catalog_id)["ac"] == ac


@pytest.mark.rule("PF-DEF-02")
def test_springals_must_be_given_their_missing_statistics(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    assert rejected(table, engine("s", "springal_arrow")) == "missing_engine_stat"
    partial = {"targeting_dc": 20, "hardness": 5}
    assert rejected(table, engine("s", "springal_arrow", stat_overrides=partial)) == "missing_engine_stat"
    result = applied(table, engine("s", "springal_arrow", stat_overrides={**partial, "hp": 100}))
    assert (result["ac"], result["hardness"], result["max_hp"], result["targeting_dc"]) == (3, 5, 100, 20)


@pytest.mark.rule("PF-ENGINE-01")
def test_legacy_engines_are_not_supported(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    assert rejected(table, engine("e", "crb_ballista")) == "engine_not_supported"
    assert rejected(table, engine("e", "harvester")) == "engine_not_supported"
    assert rejected(table, engine("e", "trebuchet_giant")) == "unknown_engine"


@pytest.mark.rule("PF-DEF-03", "PF-DEF-04", "PF-ASSAULT-09")
def test_armored_heavy_ballista_and_unarmorable_engines(rules_table: TableFactory) -> None:
    result = place(rules_table, "ballista_heavy", armor=FULL_PLATE)
    assert (result["ac"], result["hardness"], result["max_hp"], result["cost_gp"]) == (12, 10, 145, 6800)
    table = rules_table("pathfinder")
    ladder_armor = {"armor_bonus": 4, "category": "medium", "metal": False, "base_price_gp": 50}
    assert rejected(table, engine("l", "ladder_escalade_large", armor=ladder_armor)) == "cannot_be_armored"
    assert rejected(table, engine("c", "corvus", armor=ladder_armor)) == "cannot_be_armored"


@pytest.mark.rule("PF-DEF-03")
def test_wooden_armor_raises_hardness_to_five_only(rules_table: TableFactory) -> None:
    wood = {"armor_bonus": 2, "category": "light", "metal": False, "base_price_gp": 10}
    assert place(rules_table, "cannon", armor=wood)["hardness"] == 10
    assert place(rules_table, "ram_large", armor=wood)["hardness"] == 5


@pytest.mark.rule("PF-ASSAULT-10", "PF-MOVE-03", "PF-MOVE-04", "PF-DEF-05")
def test_siege_tower_speed_with_armor_and_when_broken(rules_table: TableFactory) -> None:
    plain = place(rules_table, "siege_tower_huge")
    assert (plain["ac"], plain["hardness"], plain["max_hp"], plain["speed_ft"], plain["crew_required"]) == (
        3,
        5,
        240,
        15,
        12,
    )
    armored = place(rules_table, "siege_tower_huge", armor=MEDIUM_METAL)
    assert (
        armored["ac"],
        armored["hardness"],
        armored["max_hp"],
        armored["speed_ft"],
        armored["cost_gp"],
    ) == (
        9,
        10,
        270,
        10,
        2800,
    )
    broken = place(rules_table, "siege_tower_huge", state={"broken": True})
    assert (broken["speed_ft"], broken["conditions"]) == (5, ["broken"])


@pytest.mark.rule("PF-ASSAULT-08", "PF-ASSAULT-09", "PF-MOVE-03")
def test_gallery_and_ladder_speeds(rules_table: TableFactory) -> None:
    assert place(rules_table, "gallery_large")["speed_ft"] == 15
    assert place(rules_table, "gallery_large", armor=MEDIUM_METAL)["speed_ft"] == 10
    assert place(rules_table, "ladder_escalade_large")["speed_ft"] is None


@pytest.mark.rule("PF-DEF-05")
def test_an_engine_at_half_hit_points_starts_broken(rules_table: TableFactory) -> None:
    assert place(rules_table, "ballista_light", state={"hp": 25})["conditions"] == ["broken"]
    assert place(rules_table, "ballista_light", state={"hp": 26})["conditions"] == []


@pytest.mark.rule("PF-MISFIRE-01", "PF-MISFIRE-02")
def test_misfire_range_widens_by_four_when_broken(rules_table: TableFactory) -> None:
    assert place(rules_table, "cannon")["misfire_max"] == 1
    assert place(rules_table, "cannon", state={"broken": True})["misfire_max"] == 5
    assert place(rules_table, "bombard_light", state={"broken": True})["misfire_max"] == 6
    assert place(rules_table, "ballista_light")["misfire_max"] is None


@pytest.mark.rule("PF-ASSEMBLE-05")
@pytest.mark.parametrize(
    ("catalog_id", "assembled"),
    [
        ("catapult_standard", False),
        ("catapult_heavy", False),
        ("firewyrm", False),
        ("trebuchet_light", False),
        ("catapult_light", True),
        ("ballista_heavy", True),
        ("ram_huge", True),
    ],
)
def test_engines_built_on_site_start_unassembled(
    rules_table: TableFactory, catalog_id: str, assembled: bool
) -> None:
    assert place(rules_table, catalog_id)["assembled"] is assembled
    assert place(rules_table, catalog_id, assembled=True)["assembled"] is True


@pytest.mark.rule("PF-ASSAULT-04", "PF-ASSAULT-06", "PF-DEF-02")
def test_improvised_rams_corvus_and_bridges_use_their_fixed_defaults(rules_table: TableFactory) -> None:
    assert place(rules_table, "ram_huge", improvised=True)["max_hp"] == 60
    corvus = place(rules_table, "corvus")
    assert (corvus["size"], corvus["ac"], corvus["hardness"], corvus["max_hp"], corvus["crew_required"]) == (
        "L",
        4,
        5,
        60,
        1,
    )
    assert place(rules_table, "corvus", stat_overrides={"size": "H", "hp": 80})["ac"] == 3
    bridge = place(rules_table, "bridge_assault_huge")
    assert (bridge["hardness"], bridge["max_hp"], bridge["crew_required"], bridge["speed_ft"]) == (
        5,
        60,
        None,
        None,
    )


@pytest.mark.rule("PF-LOAD-03", "PF-AIM-01")
@pytest.mark.parametrize(
    ("catalog_id", "fields"),
    [
        ("ballista_heavy", {"improvised": True}),
        ("catapult_light", {"ram_head": "pick"}),
        ("catapult_light", {"state": {"loaded": True, "ammunition": "chain_shot"}}),
        ("catapult_light", {"state": {"aimed_at": {"creature_id": "c"}}}),
        ("ballista_heavy", {"state": {"aimed_at": {"square": {"x": 0, "y": 9}}}}),
        ("ballista_light", {"state": {"aimed_at": {"creature_id": "c"}}}),
        ("ram_large", {"state": {"loaded": True}}),
        ("ballista_light", {"stat_overrides": {"size": "H"}}),
        ("ballista_light", {"masterwork": True, "enhancement": 2, "enchantment_price_bonus": 1}),
    ],
)
def test_fields_that_do_not_fit_the_engine_are_invalid(
    rules_table: TableFactory, catalog_id: str, fields: dict[str, Any]
) -> None:
    table = rules_table("pathfinder")
    applied(
        table,
        {"type": "add_creature", "id": "c", "size": "M", "ac": 10, "hp": 10, "position": {"x": 0, "y": 9}},
    )
    assert rejected(table, engine("e", catalog_id, **fields)) == "invalid_field"


@pytest.mark.rule("PF-AIM-02")
def test_a_starting_aim_counts_twice_the_catalog_aim(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(
        table,
        engine(
            "hb",
            "ballista_heavy",
            state={
                "loaded": True,
                "aimed_at": {"square": {"x": 0, "y": 4}},
                "successive": {"seen_misses": 2},
            },
        )
        | {"catalog_id": "catapult_light"},
    )
    placed = table.state()["engines"][0]
    assert (placed["loaded"], placed["load_progress"], placed["ammunition"]) == (True, 3, "standard")
    assert placed["aim_target"] == {"kind": "square", "id": None, "square": {"x": 0, "y": 4}}
    assert placed["aim_progress"] == 4 and placed["successive"]["seen_misses"] == 2


@rule("PF-ASSAULT-10", "PF-MOVE-03", "PF-MOVE-04", "PF-DEF-03")
@pytest.mark.parametrize(
    ("fields", "speed"),
    [
        ({}, 15),
        ({"armor": ARMOR}, 10),
        ({"state": {"broken": True}}, 5),
        ({"armor": ARMOR, "state": {"broken": True}}, 5),
    ],
)
def test_tower_speed(rules_table: TableFactory, fields: dict[str, Any], speed: int) -> None:
    assert (
        applied(rules_table("pathfinder"), engine("st", "siege_tower_colossal", **fields))["speed_ft"]
        == speed
    )


@rule("PF-ASSAULT-09", "PF-DEF-03")
def test_a_ladder_cannot_be_armored(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    assert rejected(t, engine("lad", "ladder_escalade_huge", armor=ARMOR)) == "cannot_be_armored"


@rule("PF-ENGINE-01")
@pytest.mark.parametrize("catalog_id", ["crb_ram", "crb_siege_tower"])
def test_core_rulebook_close_assault_engines_are_not_supported(
    rules_table: TableFactory, catalog_id: str
) -> None:
    assert rejected(rules_table("pathfinder"), engine("old", catalog_id)) == "engine_not_supported"
