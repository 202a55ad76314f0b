"""What a landing standard shot strikes (PF-INDIRECT-07/08, PF-ENGINE-05/06, PF-AMMO-05/06, PF-STRUCT-06):
the landing square at 0 ft, bursts and splashes at their distance, every half floored (PF-GEN-05)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    PROFICIENT,
    aimed_engine,
    applied,
    at,
    creature,
    crew,
    engine,
    fire,
    setup,
    skill,
    square,
)

KNOWS: dict[str, Any] = {"bab": 6, "skills": {"knowledge_engineering": skill(1, 4)}}


def battery(
    rules_table: TableFactory, catalog_id: str, aimed: tuple[int, int], *more: Any, **state: Any
) -> Table:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT, **KNOWS),
        *(creature(m) for m in ("m1", "m2", "m3")),
        aimed_engine("e", catalog_id, square(*aimed), assembled=True, **state),
        crew("e", "lead", "m1", "m2", "m3"),
        *more,
    )
    return t


def rows(shot: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (e["entity_id"], e["zone"], e["distance_ft"], e["damage_in"], e["damage_after_save"])
        for e in shot["effects"]
    ]


@pytest.mark.rule("PF-INDIRECT-08", "PF-GEN-05")
def test_a_catapult_stone_s_save_halves_an_odd_damage_down(rules_table: TableFactory) -> None:
    """Reflex against the light catapult's targeting DC 15: 20 saves, floor(13 / 2) = 6."""
    t = battery(rules_table, "catapult_light", (0, 20), creature("v", hp=40, y=20))
    shot = applied(t, fire("e", {"targeting": [15], "damage": [4, 4, 4, 1], "save": [20]}))
    assert rows(shot) == [("v", "target", 0, 13, 6)]
    assert (shot["effects"][0]["save"]["type"], shot["effects"][0]["save"]["dc"]) == ("ref", 15)


@pytest.mark.rule("PF-ENGINE-06", "PF-GEN-05", "PF-GEN-09")
def test_a_trebuchet_splash_is_half_the_base_and_a_save_halves_it_again(rules_table: TableFactory) -> None:
    """Standard trebuchet: 23 on the landing square, no save; within 15 ft floor(23 / 2) = 11, a creature
    saving Reflex DC 20 takes floor(11 / 2) = 5, an engine 11 (no save)."""
    t = battery(
        rules_table,
        "trebuchet_standard",
        (0, 40),
        creature("v", hp=40, y=40),
        creature("s1", hp=40, y=42),
        creature("s2", hp=40, x=1, y=42),
        engine("cart", "ram_large", x=-1, y=42),
    )
    shot = applied(t, fire("e", {"targeting": [15], "damage": [4, 4, 4, 4, 4, 3], "save": [20, 1]}))
    assert rows(shot) == [
        ("v", "target", 0, 23, 23),
        ("s1", "splash", 10, 11, 5),
        ("s2", "splash", 10, 11, 11),
        ("cart", "splash", 10, 11, 11),
    ]


@pytest.mark.rule("PF-ENGINE-05")
def test_a_rocket_springal_bursts_fifteen_feet_too(rules_table: TableFactory) -> None:
    stats = {"stat_overrides": {"targeting_dc": 15, "hardness": 5, "hp": 100}}
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT, **KNOWS),
        creature("m1"),
        creature("m2"),
        aimed_engine("sp", "springal_rocket", square(0, 30)) | stats,
        crew("sp", "lead", "m1", "m2"),
        creature("a", hp=40, y=30),
        creature("b", hp=40, y=33),
        creature("c", hp=40, y=34),
    )
    shot = applied(t, fire("sp", {"targeting": [15], "damage": [5, 4, 2]}))
    assert rows(shot) == [("a", "target", 0, 11, 11), ("b", "burst", 15, 11, 11)]  # c stands 20 ft off


@pytest.mark.rule("PF-INDIRECT-07", "PF-STRUCT-06")
def test_a_stone_that_destroys_a_wall_square_lets_the_one_above_fall(rules_table: TableFactory) -> None:
    """24 on an iron square at 1 hp (broken: hardness 5) destroys it; the square on it falls to
    floor(5 / 2) − 1 = 1 hp, broken, and stands."""

    def wall(sid: str, **fields: Any) -> dict[str, Any]:
        return {
            "type": "add_structure",
            "id": sid,
            "kind": "wall",
            "material": "iron",
            "position": at(0, 20),
            **fields,
        }

    t = battery(
        rules_table,
        "catapult_light",
        (0, 20),
        wall("low", state={"hp": 1}),
        wall("high", stacked_on="low", state={"hp": 5}),
    )
    shot = applied(t, fire("e", {"targeting": [15], "damage": [6, 6, 6, 6]}))
    assert rows(shot) == [("low", "target", 0, 24, 24)]
    assert shot["collapse"] == [
        {"structure_id": "high", "hp_before": 5, "hp_after": 1, "broken": True, "destroyed": False}
    ]
    assert [(s["id"], s["hp"], s["broken"], s["destroyed"]) for s in t.state()["structures"]] == [
        ("low", -18, True, True),
        ("high", 1, True, False),
    ]


@pytest.mark.rule("PF-INDIRECT-07", "PF-STRUCT-04", "PF-STRUCT-06")
def test_a_stack_on_a_fallen_square_is_struck_at_its_lowest_standing_one_which_drops_the_rest(
    rules_table: TableFactory,
) -> None:
    """`ground` was destroyed (created at 0 hp), so of the three squares the stone strikes `low`, the lowest
    standing one; 24 destroys it and `high`, 9 hp, falls to floor(9 / 2) − 1 = 3 hp, broken, resting on
    what `low` rested on: `ground`."""

    def wall(sid: str, **fields: Any) -> dict[str, Any]:
        return {"type": "add_structure", "id": sid, "kind": "wall", "material": "iron", **fields}

    t = battery(
        rules_table,
        "catapult_light",
        (0, 20),
        wall("ground", position=at(0, 20), state={"hp": 0}),
        wall("low", stacked_on="ground", state={"hp": 1}),
        wall("high", stacked_on="low", state={"hp": 9}),
    )
    shot = applied(t, fire("e", {"targeting": [15], "damage": [6, 6, 6, 6]}))
    assert rows(shot) == [("low", "target", 0, 24, 24)]
    assert shot["collapse"] == [
        {"structure_id": "high", "hp_before": 9, "hp_after": 3, "broken": True, "destroyed": False}
    ]
    after = [
        (s["id"], s["stacked_on"], s["hp"], s["broken"], s["destroyed"]) for s in t.state()["structures"]
    ]
    assert after == [
        ("ground", None, 0, True, True),
        ("low", "ground", -18, True, True),
        ("high", "ground", 3, True, False),
    ]


@pytest.mark.rule("PF-AMMO-05", "PF-CRIT-03", "PF-GEN-05")
def test_a_critical_plague_bundle_halves_its_total_and_its_base_down(rules_table: TableFactory) -> None:
    """×2 on the light catapult: 8 dice, total floor(9 / 2) = 4, base (the first 4 dice) floor(5 / 2) = 2."""
    t = battery(
        rules_table, "catapult_light", (0, 20), creature("v", hp=40, y=20), ammunition="plague_bundle"
    )
    shot = applied(t, fire("e", {"targeting": [20], "confirm": [20], "damage": [1, 1, 1, 2, 1, 1, 1, 1]}))
    assert (shot["critical_multiplier"], shot["damage"]["total"], shot["damage"]["base"]) == (2, 4, 2)


@pytest.mark.rule("PF-AMMO-06")
def test_the_smoke_shot_s_fog_cloud_stays_on_the_landing_square(rules_table: TableFactory) -> None:
    t = battery(rules_table, "catapult_light", (0, 20), ammunition="smoke_shot")
    applied(t, fire("e", {"targeting": [15], "damage": [1, 1]}))
    assert t.state()["square_conditions"] == [{"square": at(0, 20), "condition": "fog_cloud"}]
