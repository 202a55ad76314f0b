"""Damage to objects (PF-GEN-10, PF-DEF-05/06, PF-STRUCT-05/06, PF-ENGINE-06, PF-ASSAULT-10)."""

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
    effect,
    engine,
    fire,
    setup,
    skill,
    square,
)

SKILLED = {"bab": 5, "skills": {"knowledge_engineering": skill(1, 1)}, **PROFICIENT}


def wall(sid: str, y: int, **fields: Any) -> dict[str, Any]:
    return {
        "type": "add_structure",
        "id": sid,
        "kind": "wall",
        "material": "iron",
        "position": at(0, y),
        **fields,
    }


def ballista_at(rules_table: TableFactory, target: dict[str, Any], *more: dict[str, Any]) -> Table:
    t = rules_table("pathfinder")
    setup(t, creature("lead", **SKILLED), *more, aimed_engine("lb", "ballista_light"), crew("lb", "lead"))
    return t


@pytest.mark.rule("PF-GEN-10", "PF-STRUCT-05")
def test_damage_below_hardness_does_nothing(rules_table: TableFactory) -> None:
    t = ballista_at(rules_table, {}, wall("w", 4))
    shot = applied(t, fire("lb", {"attack": [15], "damage": [1, 1, 1]}, target={"structure_id": "w"}))
    assert (effect(shot, "w")["hardness_applied"], effect(shot, "w")["hp_loss"]) == (10, 0)


@pytest.mark.rule("PF-STRUCT-05", "PF-STRUCT-06")
def test_a_collapsing_chain_stops_at_a_square_that_survives(rules_table: TableFactory) -> None:
    t = ballista_at(
        rules_table,
        {},
        wall("a", 4, state={"hp": 1}),
        wall("b", 4, stacked_on="a", state={"hp": 3}),
        wall("c", 4, stacked_on="b", state={"hp": 4}),
        wall("d", 4, stacked_on="c"),
    )
    shot = applied(t, fire("lb", {"attack": [15], "damage": [8, 8, 8]}, target={"structure_id": "a"}))
    assert [(f["structure_id"], f["hp_before"], f["hp_after"], f["destroyed"]) for f in shot["collapse"]] == [
        ("b", 3, 0, True),
        ("c", 4, 1, False),
    ]
    setup(t, creature("second", **SKILLED), aimed_engine("lb2", "ballista_light"), crew("lb2", "second"))
    again = applied(t, fire("lb2", {"attack": [15], "damage": [8, 8, 8]}, target={"structure_id": "c"}))
    assert [(f["structure_id"], f["hp_after"]) for f in again["collapse"]] == [("d", 44)]


@pytest.mark.rule("PF-DEF-05", "PF-GEN-10")
def test_an_engine_at_half_hp_is_reported_broken(rules_table: TableFactory) -> None:
    t = ballista_at(rules_table, {}, engine("cart", "ballista_heavy", y=4))
    shot = applied(t, fire("lb", {"attack": [15], "damage": [8, 8, 8]}, target={"engine_id": "cart"}))
    cart = effect(shot, "cart")
    assert (cart["hp_after"], cart["conditions_added"]) == (81, [])
    applied(t, {"type": "advance_round"})
    for _ in range(2):
        applied(
            t, {"type": "load", "engine_id": "lb", "contributors": [{"creature_id": "lead", "actions": 1}]}
        )
        applied(t, {"type": "advance_round"})
    shot = applied(t, fire("lb", {"attack": [15], "damage": [8, 8, 8]}, target={"engine_id": "cart"}))
    assert (effect(shot, "cart")["hp_after"], effect(shot, "cart")["conditions_added"]) == (62, [])


@pytest.mark.rule("PF-GEN-10")
def test_a_creature_brought_to_zero_goes_down(rules_table: TableFactory) -> None:
    t = ballista_at(rules_table, {}, creature("weak", hp=3, y=4))
    shot = applied(t, fire("lb", {"attack": [15], "damage": [1, 1, 1]}, target={"creature_id": "weak"}))
    assert (effect(shot, "weak")["hp_after"], effect(shot, "weak")["conditions_added"]) == (0, ["down"])


@pytest.mark.rule("PF-ENGINE-06", "PF-STRUCT-05")
def test_trebuchet_splash_hits_objects_for_half_the_base_without_save(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("tl", bab=10, **PROFICIENT),
        creature("t2"),
        creature("t3"),
        aimed_engine("tb", "trebuchet_heavy", square(0, 80), assembled=True),
        crew("tb", "tl", "t2", "t3"),
        {
            "type": "add_structure",
            "id": "gate",
            "kind": "gate",
            "material": "wood",
            "size": "L",
            "position": at(0, 86),
        },
        {
            "type": "add_structure",
            "id": "hut",
            "kind": "building",
            "material": "wood",
            "size": "L",
            "position": at(0, 80),
            "state": {"hp": 10},
        },
    )
    shot = applied(t, fire("tb", {"targeting": [15], "damage": [6] * 8}))
    hut, gate = effect(shot, "hut"), effect(shot, "gate")
    assert (hut["zone"], hut["damage_in"], hut["hardness_applied"], hut["cave_in"]) == ("target", 48, 2, True)
    assert (gate["zone"], gate["damage_in"], gate["save"], gate["hp_after"]) == ("splash", 24, None, 41)
