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


@pytest.mark.rule("PF-STRUCT-02")
def test_flimsy_halves_a_supplied_hp_rounding_down(rules_table: TableFactory) -> None:
    """`flimsy` halves the building's hp, a supplied one too: 91 hp give 45 (hp are whole numbers)."""
    table = rules_table("pathfinder")
    result = applied(
        table, structure("b", "building", "wood", size="L", flimsy=True, stat_overrides={"hp": 91})
    )
    assert (result["max_hp"], result["hp"]) == (45, 45)
    assert table.state()["structures"][0]["max_hp"] == 45
    assert isinstance(table.state()["structures"][0]["max_hp"], int)


@pytest.mark.rule("PF-STRUCT-02", "PF-STRUCT-03", "PF-STRUCT-04")
def test_supplied_statistics_stand_in_for_the_tables(rules_table: TableFactory) -> None:
    """`stat_overrides` win over the table: hardness, hp and break DC, then doubled if magic-treated."""
    gate = add(
        rules_table,
        "gate",
        "iron",
        size="L",
        stat_overrides={"hardness": 7, "hp": 33, "break_dc": 30},
        magic_treated=True,
    )
    assert (gate["hardness"], gate["max_hp"], gate["hp"], gate["break_dc"], gate["break_dc_suspect"]) == (
        14,
        66,
        66,
        30,
        False,
    )
    wall = add(rules_table, "wall", "iron", stat_overrides={"hardness": 3, "hp": 7})
    assert (wall["hardness"], wall["max_hp"], wall["break_dc"]) == (3, 7, None)
    building = add(rules_table, "building", "stone", size="L", stat_overrides={"break_dc": 20})
    assert (building["hardness"], building["max_hp"], building["break_dc"]) == (8, 200, 20)


@pytest.mark.rule("PF-STRUCT-05")
@pytest.mark.parametrize(
    ("kind", "hp", "broken", "breached"),
    [
        ("gate", 31, False, False),
        ("gate", 30, True, True),
        ("building", 61, False, False),
        ("building", 60, True, True),
        ("wall", 46, False, False),
        ("wall", 45, True, False),
    ],
)
def test_broken_from_creation_at_half_hp_exactly(
    rules_table: TableFactory, kind: str, hp: int, broken: bool, breached: bool
) -> None:
    """hp × 2 ≤ max_hp is broken: a Large wood gate of 60 hp, a Large wood building of 120, a wall of 90."""
    fields: dict[str, Any] = {"state": {"hp": hp}} | ({"size": "L"} if kind != "wall" else {})
    table = rules_table("pathfinder")
    result = applied(table, structure("s", kind, "iron" if kind == "wall" else "wood", **fields))
    assert (result["hp"], result["broken"], result["breached"]) == (hp, broken, breached)
    built = table.state()["structures"][0]
    assert (built["broken"], built["breached"], built["destroyed"], built["conditions"]) == (
        broken,
        breached,
        False,
        [],
    )


@pytest.mark.rule("PF-STRUCT-05")
@pytest.mark.parametrize(
    ("kind", "hp", "destroyed", "breached", "conditions"),
    [
        ("wall", 1, False, False, []),
        ("wall", 0, True, True, []),
        ("gate", 0, True, True, []),
        ("building", 1, False, True, []),
        ("building", 0, True, True, ["cave_in"]),
    ],
)
def test_created_at_no_hp_a_structure_is_destroyed(
    rules_table: TableFactory, kind: str, hp: int, destroyed: bool, breached: bool, conditions: list[str]
) -> None:
    """At hp ≤ 0 destroyed: a wall square breached (it was only broken), a building caved in."""
    table = rules_table("pathfinder")
    sized = {"size": "L"} if kind != "wall" else {}
    result = applied(table, structure("s", kind, "iron", state={"hp": hp}, **sized))
    assert (result["broken"], result["breached"]) == (True, breached)
    built = table.state()["structures"][0]
    assert (built["destroyed"], built["breached"], built["conditions"]) == (destroyed, breached, conditions)


@pytest.mark.rule("PF-STRUCT-01", "PF-STRUCT-02", "PF-STRUCT-03")
def test_the_state_keeps_what_was_set_up(rules_table: TableFactory) -> None:
    """The structure as created: its size (none for a wall square), the flags it was given, open only for
    gates, and the break DC reported suspect for an iron gate only while it comes from the table."""
    table = rules_table("pathfinder")
    applied(table, structure("g", "gate", "iron", size="H", arcane_lock=True, magic_treated=True))
    applied(
        table, structure("b", "building", "stone", size="G", flimsy=True) | {"position": {"x": 1, "y": 0}}
    )
    applied(table, structure("w", "wall", "iron", size="L") | {"position": {"x": 2, "y": 0}})
    gate, building, wall = table.state()["structures"]
    assert {k: gate[k] for k in ("kind", "material", "size", "ac", "hardness", "max_hp", "hp")} == {
        "kind": "gate",
        "material": "iron",
        "size": "H",
        "ac": 3,
        "hardness": 20,
        "max_hp": 1000,
        "hp": 1000,
    }
    assert (gate["break_dc"], gate["break_dc_suspect"], gate["arcane_lock"], gate["magic_treated"]) == (
        39,
        True,
        True,
        True,
    )
    assert (gate["flimsy"], gate["open"], gate["stacked_on"], gate["position"]) == (
        False,
        False,
        None,
        {"x": 0, "y": 0},
    )
    assert (building["size"], building["flimsy"], building["arcane_lock"], building["open"]) == (
        "G",
        True,
        False,
        None,
    )
    assert (building["ac"], building["max_hp"], building["break_dc"], building["break_dc_suspect"]) == (
        0,
        800,
        None,
        False,
    )
    assert (wall["size"], wall["ac"], wall["open"], wall["magic_treated"]) == (None, 5, None, False)


@pytest.mark.rule("PF-STRUCT-04")
def test_only_a_wall_square_stacks_and_only_on_a_free_wall_square(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(table, structure("a1", "wall", "iron") | {"position": {"x": 0, "y": 10}})
    applied(table, structure("g", "gate", "wood", size="L") | {"position": {"x": 5, "y": 5}})
    on_a1 = {"type": "add_structure", "kind": "wall", "material": "iron", "stacked_on": "a1"}
    assert rejected(table, {**on_a1, "id": "t", "kind": "gate", "size": "L"}) == "invalid_field"
    assert rejected(table, {**on_a1, "id": "t", "stacked_on": "g"}) == "invalid_field"
    same = applied(table, {**on_a1, "id": "a2", "position": {"x": 0, "y": 10}})
    assert same["structure_id"] == "a2"
    assert rejected(table, {**on_a1, "id": "a3"}) == "invalid_field"  # a1 already carries a2
    applied(table, {**on_a1, "id": "a3", "stacked_on": "a2"})
    stacked = [(s["id"], s["stacked_on"], s["position"]) for s in table.state()["structures"]]
    assert stacked == [
        ("a1", None, {"x": 0, "y": 10}),
        ("g", None, {"x": 5, "y": 5}),
        ("a2", "a1", {"x": 0, "y": 10}),
        ("a3", "a2", {"x": 0, "y": 10}),
    ]


@pytest.mark.rule("PF-STRUCT-01")
def test_fields_of_another_kind_or_a_missing_place_are_invalid(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    assert rejected(table, structure("b", "building", "wood")) == "invalid_field"  # no size
    assert rejected(table, structure("w", "wall", "iron", flimsy=True)) == "invalid_field"
    assert rejected(table, structure("w", "wall", "iron", arcane_lock=True)) == "invalid_field"
    assert rejected(table, structure("w", "wall", "iron", state={"open": True})) == "invalid_field"
    assert rejected(table, structure("b", "building", "wood", size="L", state={"open": True})) == (
        "invalid_field"
    )
    nowhere = {"type": "add_structure", "id": "w", "kind": "wall", "material": "iron"}
    assert rejected(table, nowhere) == "invalid_field"
    assert applied(table, structure("w", "wall", "iron", state={"open": False}))["structure_id"] == "w"
