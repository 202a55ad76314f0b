"""Mishaps, misfires and explosions (PF-MISHAP-01..03, PF-MISFIRE-01..05, PF-ENGINE-04, PF-FEAT-02)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.pathfinder.catalog import ENGINES
from rules.pathfinder.mishap import is_mishap
from rules.pathfinder.state import Creature, Square
from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    PROFICIENT,
    aimed_engine,
    applied,
    creature,
    crew,
    fire,
    firearm,
    rejected,
    setup,
    skill,
    square,
    who,
)

ENGINEER = {"feats": ["siege_engineer"], "skills": {"knowledge_engineering": skill(5, 5)}, **PROFICIENT}


@pytest.mark.rule("PF-MISHAP-01", "PF-MISHAP-02", "PF-GEN-07")
def test_a_natural_one_breaks_a_ballista_but_never_twice(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT),
        creature("dummy", y=4),
        aimed_engine("lb", "ballista_light"),
        crew("lb", "lead"),
    )
    outcome = t.send(fire("lb", {"attack": [1]}, target=who("dummy")))
    shot = outcome["result"]
    assert (shot["hit"], shot["mishap"], shot["engine_after"]["broken"]) == (False, True, True)
    assert [c["event"] for c in outcome["changes"]].count("EngineBrokenByMishap") == 1


@pytest.mark.rule("PF-MISHAP-01", "PF-FEAT-02")
def test_siege_engineers_cause_no_mishap(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **ENGINEER),
        creature("dummy", y=4),
        aimed_engine("lb", "ballista_light"),
        crew("lb", "lead"),
    )
    shot = applied(t, fire("lb", {"attack": [1]}, target=who("dummy")))
    assert (shot["mishap"], shot["engine_after"]["broken"]) == (False, False)


@pytest.mark.rule("PF-MISFIRE-01", "PF-MISFIRE-05", "PF-FEAT-02")
def test_a_firearm_misfires_even_for_a_siege_engineer(rules_table: TableFactory) -> None:
    shot = applied(firearm(rules_table, ENGINEER), fire("cn", {"attack": [1]}))
    assert (shot["misfire"], shot["mishap"], shot["hit"], shot["effects"]) == (True, False, False, [])
    assert (shot["engine_after"]["broken"], shot["engine_after"]["misfire_max"]) == (True, 5)


@pytest.mark.rule("PF-MISFIRE-02")
def test_gun_training_widens_a_broken_range_by_two_only_under_the_option(rules_table: TableFactory) -> None:
    trained = {**PROFICIENT, "features": ["gun_training"]}
    on = firearm(rules_table, trained, {"gun_training_on_siege_firearms": True}, broken=True)
    assert applied(on, fire("cn", {"attack": [4], "scatter_direction": [1]}))["misfire"] is False
    off = firearm(rules_table, trained, broken=True)
    boom = applied(
        off, fire("cn", {"attack": [4], "explosion_damage": [1] * 6, "explosion_reflex": [10, 10]})
    )
    assert (boom["misfire"], boom["exploded"]) == (True, True)


@pytest.mark.rule("PF-MISFIRE-03", "PF-DEF-06", "PF-GEN-09")
def test_a_broken_firearm_explodes_on_the_crew(rules_table: TableFactory) -> None:
    t = firearm(rules_table, {**PROFICIENT, "hp": 40}, broken=True)
    boom = applied(t, fire("cn", {"attack": [2], "explosion_damage": [6] * 6, "explosion_reflex": [20, 1]}))
    assert (boom["exploded"], boom["damage"]["total"], boom["engine_after"]["destroyed"]) == (True, 36, True)
    assert [(e["entity_id"], e["damage_after_save"], e["save"]["dc"]) for e in boom["effects"]] == [
        ("lead", 18, 20),
        ("mate", 36, 20),
    ]
    assert rejected(t, fire("cn")) == "engine_destroyed"


@pytest.mark.rule("PF-MISFIRE-04")
def test_the_rocket_springal_explodes_on_a_natural_one(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    stats = {"stat_overrides": {"targeting_dc": 20, "hardness": 5, "hp": 100}}
    setup(
        t,
        creature("lead", **ENGINEER),
        creature("m1", x=4),
        creature("m2", x=5),
        aimed_engine("rs", "springal_rocket", square(0, 30)) | stats,
        crew("rs", "lead", "m1", "m2"),
    )
    boom = applied(
        t, fire("rs", {"targeting": [1], "explosion_damage": [10, 10, 10], "explosion_reflex": [1, 20]})
    )
    assert (boom["misfire"], boom["exploded"], boom["landing"], boom["damage"]["total"]) == (
        True,
        True,
        None,
        30,
    )
    assert [(e["entity_id"], e["damage_after_save"]) for e in boom["effects"]] == [("lead", 30), ("m1", 15)]


@pytest.mark.rule("PF-MISHAP-03", "PF-ENGINE-04")
def test_a_broken_firedrake_explodes_and_an_intact_one_only_breaks(rules_table: TableFactory) -> None:
    def drake(**state: Any) -> Table:
        t = rules_table("pathfinder")
        setup(
            t,
            creature("fl", **PROFICIENT),
            creature("f2"),
            creature("f3", x=5),
            creature("v", y=4),
            aimed_engine("fd", "firedrake", square(0, 6), **state),
            crew("fd", "fl", "f2", "f3"),
        )
        return t

    area = {"shape": "line", "target_ids": ["v"]}
    intact = drake().send(fire("fd", {"operation": [1]}, area=area))
    assert (intact["result"]["mishap"], intact["result"]["exploded"], intact["result"]["damage"]) == (
        True,
        False,
        None,
    )
    assert intact["result"]["engine_after"]["broken"] is True
    assert [r["slot"] for r in intact["rolls"]] == ["operation"]
    boom = applied(
        drake(broken=True),
        fire(
            "fd", {"operation": [1], "explosion_damage": [2] * 6, "explosion_reflex": [15, 14, 1]}, area=area
        ),
    )
    assert (boom["exploded"], boom["damage"]["total"], boom["damage"]["static"]) == (True, 12, 0)
    assert [(e["entity_id"], e["save"]["dc"], e["damage_after_save"]) for e in boom["effects"]] == [
        ("fl", 15, 6),
        ("f2", 15, 12),
        ("v", 15, 12),
    ]  # f3 stands 25 ft away, outside the 20 ft blast


# PF-MISFIRE-01: the siege firearms by catalog id; PF-MISFIRE-04: the rocket springal misfires instead
FIREARMS = {"cannon", "cannon_fiends_mouth", "bombard_light", "bombard_standard", "bombard_heavy"}


def leader(*feats: str) -> Creature:
    return Creature(
        id="lead", size="M", ac=10, touch_ac=10, hp=10, max_hp=10, feats=feats, position=Square(x=0, y=0)
    )


@pytest.mark.rule("PF-MISHAP-01", "PF-MISFIRE-01", "PF-MISFIRE-04", "PF-FEAT-02")
@pytest.mark.parametrize("catalog_id", sorted(ENGINES))
def test_only_a_natural_one_of_a_non_firearm_mishaps_and_never_for_a_siege_engineer(catalog_id: str) -> None:
    spec = ENGINES[catalog_id]
    mishaps = catalog_id not in FIREARMS | {"springal_rocket"}
    assert is_mishap(spec, leader(), 1) is mishaps
    assert [n for n in range(2, 21) if is_mishap(spec, leader(), n)] == []
    assert is_mishap(spec, leader("siege_engineer"), 1) is False
    assert is_mishap(spec, leader("siege_gunner"), 1) is mishaps  # another feat is no Siege Engineer


@pytest.mark.rule("PF-MISFIRE-01", "PF-MISHAP-01")
def test_an_indirect_bombard_misfires_on_a_natural_one_without_a_mishap(rules_table: TableFactory) -> None:
    """A crew with no Siege Engineer: the natural 1 is the firearm's misfire alone, one break, no mishap."""
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT),
        *(creature(c, x=i + 1) for i, c in enumerate(("m2", "m3", "m4"))),
        aimed_engine("bd", "bombard_light", square(0, 30)),
        crew("bd", "lead", "m2", "m3", "m4"),
    )
    dice = {"targeting": [1], "scatter_direction": [1], "scatter_distance": [1, 1], "damage": [1] * 5}
    outcome = t.send(fire("bd", dice))
    shot = outcome["result"]
    assert (shot["misfire"], shot["mishap"], shot["hit"], shot["exploded"]) == (True, False, False, False)
    assert (shot["engine_after"]["broken"], shot["engine_after"]["misfire_max"]) == (True, 6)
    assert [c["event"] for c in outcome["changes"]].count("EngineBrokenByMishap") == 1
