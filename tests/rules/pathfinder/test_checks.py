"""The checks of §2 run first for every command (PF-GEN-01, PF-GEN-06): ids, then dice faces; unused dice."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.rules.pathfinder.given import applied, creature, engine, rejected


@pytest.mark.rule("PF-GEN-06")
def test_a_supplied_slot_never_drawn_is_listed_by_name(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    result = applied(table, {**creature("c"), "dice": {"attack": [3], "save": 4}})
    assert result["unused_dice"] == ["attack", "save"]
    assert result["round"] == 1


@pytest.mark.rule("PF-GEN-06")
def test_a_die_above_its_faces_is_rejected_before_anything_else(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    assert rejected(table, {**engine("e", "no_such_engine"), "dice": {"scatter_direction": [9]}}) == (
        "dice_value_out_of_range"
    )


@pytest.mark.rule("PF-GEN-06")
def test_unknown_ids_are_rejected_before_dice_faces(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    command = {"type": "assign_crew", "engine_id": "ghost", "creature_ids": ["x"], "leader_id": "x"}
    assert rejected(table, {**command, "dice": {"check": [21]}}) == "unknown_entity"


@pytest.mark.rule("PF-GEN-01")
def test_ids_are_unique_across_creatures_engines_and_structures(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(table, creature("x"))
    assert rejected(table, engine("x", "ballista_light")) == "duplicate_id"
    wall = {
        "type": "add_structure",
        "id": "x",
        "kind": "wall",
        "material": "iron",
        "position": {"x": 0, "y": 0},
    }
    assert rejected(table, wall) == "duplicate_id"
