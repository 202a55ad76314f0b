"""Structures as targets: walls, gates and buildings (§3.5, PF-STRUCT-01..05)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.rules.pathfinder.given import applied, rejected


def structure(sid: str, kind: str, material: str, **fields: Any) -> dict[str, Any]:
    return {
        "type": "add_structure",
        "id": sid,
        "kind": kind,
        "material": material,
        "position": {"x": 0, "y": 0},
        **fields,
    }


def add(rules_table: TableFactory, kind: str, material: str, **fields: Any) -> dict[str, Any]:
    return applied(rules_table("pathfinder"), structure("s", kind, material, **fields))


@pytest.mark.rule("PF-STRUCT-01", "PF-STRUCT-02")
def test_a_damaged_stone_building(rules_table: TableFactory) -> None:
    result = add(rules_table, "building", "stone", size="H", state={"hp": 240})
    assert result == {
        "structure_id": "s",
        "kind": "building",
        "ac": 3,
        "hardness": 8,
        "max_hp": 450,
        "hp": 240,
        "break_dc": None,
        "break_dc_suspect": False,
        "magic_cost_gp": None,
        "broken": False,
        "breached": False,
        "round": 1,
        "unused_dice": [],
    }


@pytest.mark.rule("PF-STRUCT-02")
def test_magic_treated_and_flimsy_buildings(rules_table: TableFactory) -> None:
    treated = add(rules_table, "building", "stone", size="H", magic_treated=True)
    assert (treated["hardness"], treated["max_hp"], treated["magic_cost_gp"]) == (16, 900, 10000)
    assert add(rules_table, "building", "stone", size="H", flimsy=True)["max_hp"] == 225
    wood = add(rules_table, "building", "wood", size="G")
    assert (wood["ac"], wood["hardness"], wood["max_hp"]) == (0, 5, 960)
    assert add(rules_table, "building", "adamantine", size="C")["max_hp"] == 15120


@pytest.mark.rule("PF-STRUCT-03", "PF-STRUCT-01")
@pytest.mark.parametrize(
    ("material", "size", "fields", "expected"),
    [
        ("wood", "L", {}, {"ac": 4, "hardness": 5, "max_hp": 60, "break_dc": 35}),
        ("stone", "H", {}, {"ac": 3, "hardness": 8, "max_hp": 225, "break_dc": 43}),
        ("stone", "H", {"magic_treated": True}, {"hardness": 16, "max_hp": 450, "magic_cost_gp": 4000}),
        ("iron", "L", {}, {"break_dc": 24, "break_dc_suspect": True}),
        ("wood", "G", {}, {"ac": 0, "max_hp": 240, "break_dc": 45}),
        ("wood", "H", {"arcane_lock": True}, {"break_dc": 50}),
        ("adamantine", "C", {}, {"ac": 0, "max_hp": 2520, "hardness": 20, "break_dc": 63}),
    ],
)
def test_gate_statistics(
    rules_table: TableFactory, material: str, size: str, fields: dict[str, Any], expected: dict[str, Any]
) -> None:
    result = add(rules_table, "gate", material, size=size, **fields)
    assert {key: result[key] for key in expected} == expected


@pytest.mark.rule("PF-STRUCT-04")
def test_iron_wall_squares_have_fixed_statistics_others_must_supply_them(rules_table: TableFactory) -> None:
    iron = add(rules_table, "wall", "iron")
    assert (iron["ac"], iron["hardness"], iron["max_hp"], iron["break_dc"]) == (5, 10, 90, None)
    table = rules_table("pathfinder")
    assert rejected(table, structure("w", "wall", "stone")) == "missing_structure_stat"
    assert rejected(table, structure("g", "gate", "earth", size="L")) == "missing_structure_stat"
    stone = applied(
        table, structure("w", "wall", "stone", stat_overrides={"hardness": 8, "hp": 90}, magic_treated=True)
    )
    assert (stone["hardness"], stone["max_hp"], stone["magic_cost_gp"]) == (16, 180, 500)
    # both: iron's 10 and 90 are iron's alone, neither stands in for the other stat
    assert (
        rejected(table, structure("v", "wall", "stone", stat_overrides={"hp": 90}))
        == "missing_structure_stat"
    )
    assert rejected(table, structure("v", "wall", "wood", stat_overrides={"hardness": 5})) == (
        "missing_structure_stat"
    )


@pytest.mark.rule("PF-STRUCT-01", "PF-STRUCT-04")
def test_a_wall_square_given_a_size_is_still_ac_5_and_500_gp_to_treat(rules_table: TableFactory) -> None:
    """`size` is read for gates and buildings only: a wall square's AC and treatment cost have no column."""
    wall = add(rules_table, "wall", "iron", size="L", magic_treated=True)
    assert (wall["ac"], wall["magic_cost_gp"], wall["hardness"], wall["max_hp"]) == (5, 500, 20, 180)


@pytest.mark.rule("PF-STRUCT-04")
def test_a_stacked_square_takes_the_position_below(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(table, structure("a1", "wall", "iron") | {"position": {"x": 0, "y": 10}})
    applied(
        table, {"type": "add_structure", "id": "a2", "kind": "wall", "material": "iron", "stacked_on": "a1"}
    )
    assert table.state()["structures"][1]["position"] == {"x": 0, "y": 10}
    wrong = {
        "type": "add_structure",
        "id": "a3",
        "kind": "wall",
        "material": "iron",
        "stacked_on": "a2",
        "position": {"x": 1, "y": 10},
    }
    assert rejected(table, wrong) == "invalid_field"
    assert rejected(table, {**wrong, "stacked_on": "nope"}) == "unknown_entity"


@pytest.mark.rule("PF-STRUCT-05")
def test_structures_created_at_half_hp_are_broken_and_gates_breached(rules_table: TableFactory) -> None:
    wall = add(rules_table, "wall", "iron", state={"hp": 10})
    assert (wall["broken"], wall["breached"]) == (True, False)
    gate = add(rules_table, "gate", "wood", size="L", state={"hp": 30})
    assert (gate["broken"], gate["breached"]) == (True, True)


@pytest.mark.rule("PF-STRUCT-03")
def test_gates_start_closed_unless_told(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(table, structure("g", "gate", "wood", size="L"))
    applied(
        table, structure("h", "gate", "wood", size="L", state={"open": True}) | {"position": {"x": 1, "y": 0}}
    )
    assert [s["open"] for s in table.state()["structures"]] == [False, True]


def test_fields_of_another_kind_are_invalid(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    assert rejected(table, structure("g", "gate", "wood")) == "invalid_field"
    assert rejected(table, structure("g", "gate", "wood", size="L", flimsy=True)) == "invalid_field"
    assert rejected(table, structure("b", "building", "wood", size="L", arcane_lock=True)) == "invalid_field"
