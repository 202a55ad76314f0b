"""Critical hits (PF-CRIT-01..04, PF-ENGINE-02)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    PROFICIENT,
    aimed_engine,
    applied,
    creature,
    crew,
    effect,
    engine,
    fire,
    setup,
    skill,
    square,
    who,
)

KNOWS: dict[str, Any] = {"skills": {"knowledge_engineering": skill(1, 1)}}


def heavy(rules_table: TableFactory, *targets: dict[str, Any], aimed_at: dict[str, Any]) -> Table:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT, **KNOWS),
        creature("m1"),
        creature("m2"),
        *targets,
        aimed_engine("hb", "ballista_heavy", aimed_at),
        crew("hb", "lead", "m1", "m2"),
    )
    return t


@pytest.mark.rule("PF-CRIT-01", "PF-CRIT-03")
def test_a_threat_in_range_is_confirmed_and_multiplies_dice_and_static(rules_table: TableFactory) -> None:
    t = heavy(rules_table, creature("orc", hp=50, y=10), aimed_at=who("orc"))
    shot = applied(t, fire("hb", {"attack": [19], "confirm": [11], "damage": [1, 2, 3, 4, 5, 6, 7, 8]}))
    assert (
        shot["threat"],
        shot["confirm"]["slot"],
        shot["confirm"]["success"],
        shot["critical_multiplier"],
    ) == (
        True,
        "confirm",
        True,
        2,
    )
    assert shot["damage"] == {"dice": [1, 2, 3, 4, 5, 6, 7, 8], "static": 0, "total": 36, "base": 10}
    assert effect(shot, "orc")["hp_after"] == 14


@pytest.mark.rule("PF-CRIT-01")
def test_an_unconfirmed_threat_deals_normal_damage(rules_table: TableFactory) -> None:
    t = heavy(rules_table, creature("orc", ac=25, hp=50, y=10), aimed_at=who("orc"))
    shot = applied(t, fire("hb", {"attack": [20], "confirm": [20 - 6], "damage": [1, 1, 1, 1]}))
    assert (
        shot["threat"],
        shot["confirm"]["total"],
        shot["confirm"]["success"],
        shot["critical_multiplier"],
    ) == (
        True,
        14,
        False,
        1,
    )
    assert shot["damage"]["total"] == 4


@pytest.mark.rule("PF-CRIT-01")
def test_outside_the_threat_range_no_confirmation_is_drawn(rules_table: TableFactory) -> None:
    t = heavy(rules_table, creature("orc", hp=50, y=10), aimed_at=who("orc"))
    outcome = t.send(fire("hb", {"attack": [18], "damage": [1, 1, 1, 1]}))
    assert outcome["result"]["threat"] is False and outcome["result"]["confirm"] is None
    assert [r["slot"] for r in outcome["rolls"]] == ["attack"] + ["damage"] * 4


@pytest.mark.rule("PF-CRIT-02", "PF-CRIT-03", "PF-ENGINE-05")
def test_indirect_criticals_multiply_only_the_landing_square(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", bab=5, **PROFICIENT, **KNOWS),
        creature("m1"),
        creature("m2"),
        aimed_engine("sp", "springal_arrow", square(0, 20))
        | {"stat_overrides": {"targeting_dc": 20, "hardness": 5, "hp": 100}},
        crew("sp", "lead", "m1", "m2"),
        creature("in", hp=80, y=20),
        creature("near", hp=80, y=22),
    )
    shot = applied(t, fire("sp", {"targeting": [20], "confirm": [15], "damage": [1] * 9}))
    assert (shot["threat"], shot["critical_multiplier"], shot["damage"]["total"], shot["damage"]["base"]) == (
        True,
        3,
        9,
        3,
    )
    assert [(e["entity_id"], e["zone"], e["damage_in"]) for e in shot["effects"]] == [
        ("in", "target", 9),
        ("near", "burst", 3),
    ]


@pytest.mark.rule("PF-CRIT-04")
def test_engines_without_a_critical_never_threaten(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("fl", **PROFICIENT),
        creature("f2"),
        creature("f3"),
        creature("v", hp=80, y=4),
        aimed_engine("fd", "firedrake", square(0, 6)),
        crew("fd", "fl", "f2", "f3"),
    )
    gout = applied(
        t,
        fire(
            "fd",
            {"operation": [20], "damage": [1] * 6, "save": [1]},
            area={"shape": "line", "target_ids": ["v"]},
        ),
    )
    assert (gout["threat"], gout["confirm"], gout["critical_multiplier"]) == (False, None, 1)


@pytest.mark.rule("PF-CRIT-04", "PF-ENGINE-02")
def test_criticals_apply_to_objects_and_the_gate_breaker_triples_against_wood(
    rules_table: TableFactory,
) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("gb", **PROFICIENT, **KNOWS),
        *(creature(f"m{n}") for n in range(4)),
        {
            "type": "add_structure",
            "id": "iron",
            "kind": "gate",
            "material": "iron",
            "size": "L",
            "position": {"x": 0, "y": 10},
        },
        aimed_engine("brk", "ballista_gate_breaker", {"structure_id": "iron"}),
        crew("brk", "gb", "m0", "m1", "m2", "m3"),
    )
    shot = applied(t, fire("brk", {"attack": [19], "confirm": [10], "damage": [1] * 12}))
    assert (shot["critical_multiplier"], shot["damage"]["total"]) == (2, 12)


@pytest.mark.rule("PF-ENGINE-02", "PF-CRIT-01", "PF-CRIT-03")
@pytest.mark.parametrize(
    ("target", "multiplier"),
    [
        ({"structure_id": "gate"}, 3),  # a wooden structure: 19–20/×3
        ({"engine_id": "cart"}, 2),  # a wooden engine is no structure: the catalog's ×2
        ({"creature_id": "ogre"}, 2),
    ],
)
def test_the_gate_breaker_triples_against_a_wooden_structure_only(
    rules_table: TableFactory, target: dict[str, str], multiplier: int
) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("gb", **PROFICIENT, **KNOWS),
        *(creature(f"m{n}") for n in range(4)),
        {
            "type": "add_structure",
            "id": "gate",
            "kind": "gate",
            "material": "wood",
            "size": "L",
            "position": {"x": 0, "y": 10},
        },
        creature("ogre", size="L", hp=200, x=1, y=10),
        engine("cart", "ram_large", x=-1, y=10),
        aimed_engine("brk", "ballista_gate_breaker", target),
        crew("brk", "gb", "m0", "m1", "m2", "m3"),
    )
    shot = applied(t, fire("brk", {"attack": [19], "confirm": [10], "damage": [1] * 6 * multiplier}))
    assert (shot["threat"], shot["critical_multiplier"], shot["damage"]["total"]) == (
        True,
        multiplier,
        6 * multiplier,
    )
