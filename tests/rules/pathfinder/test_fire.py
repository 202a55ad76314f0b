"""`fire` (§3.13, PF-TIME-05, PF-ASSAULT-10): its refusals in the spec's order, one shot a round."""

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
    ballista,
    creature,
    crew,
    engine,
    fire,
    rejected,
    setup,
    shoot,
    skill,
    square,
    who,
)

rule = pytest.mark.rule


@pytest.mark.rule("PF-TIME-05")
def test_an_engine_fires_once_per_round(rules_table: TableFactory) -> None:
    t = ballista(rules_table)
    shoot(t, {"attack": [2]})
    assert rejected(t, fire("lb", target=who("dummy"))) == "action_unavailable"


@pytest.mark.rule("PF-LOAD-01", "PF-AIM-03", "PF-DEF-06")
def test_fire_refusals_in_the_spec_order(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT),
        creature("dummy", y=4),
        engine("lb", "ballista_light"),
        crew("lb", "lead"),
        engine("hb", "ballista_heavy", state={"loaded": True}),
        engine("wreck", "ram_large", y=2, state={"hp": 0}),
    )
    assert rejected(t, fire("lb", target=who("dummy"))) == "not_loaded"
    assert rejected(t, fire("hb", target=who("dummy"))) == "invalid_field"
    assert rejected(t, fire("hb")) == "no_crew"
    loaded = rules_table("pathfinder")
    setup(
        loaded,
        creature("lead", **PROFICIENT),
        aimed_engine("lb", "ballista_light"),
        crew("lb", "lead"),
        engine("wreck", "ram_large", y=2, state={"hp": 0}),
    )
    assert rejected(loaded, fire("lb", target={"square": {"x": 0, "y": 3}})) == "target_kind_invalid"
    assert rejected(loaded, fire("lb", target={"engine_id": "wreck"})) == "target_destroyed"
    assert rejected(loaded, fire("lb", target={"engine_id": "ghost"})) == "unknown_entity"


@rule("PF-ASSAULT-10", "PF-DIRECT-04")
def test_a_shot_at_the_lower_storey_is_refused_too(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        engine("st", "siege_tower_large", y=4),
        creature("low", y=4, inside={"engine_id": "st", "level": "lower"}),
        aimed_engine("lb", "ballista_light"),
        creature("aimer", **PROFICIENT),
        crew("lb", "aimer"),
    )
    assert rejected(t, fire("lb", {"attack": [10]}, target=who("low"))) == "target_has_total_cover"


@rule("PF-AIM-03", "PF-ENGINE-03", "PF-AMMO-07")
def test_fields_a_shot_may_not_carry_are_invalid(rules_table: TableFactory) -> None:
    """§3.13: `target` only for aim-0 engines (the cannon aims 1), `area` only and always for the gouts,
    `target_ids` only for a blast shot."""
    t = ballista(rules_table)
    line = {"shape": "line", "target_ids": ["dummy"]}
    assert rejected(t, fire("lb", {"attack": [2]}, target=who("dummy"), area=line)) == "invalid_field"
    assert (
        rejected(t, fire("lb", {"attack": [2]}, target=who("dummy"), target_ids=["dummy"])) == "invalid_field"
    )
    gunner = rules_table("pathfinder")
    setup(
        gunner,
        creature("cg", bab=4, proficiencies=["firearms"]),
        creature("c2", x=1),
        creature("ogre", y=4),
        aimed_engine("cn", "cannon", who("ogre")),
        crew("cn", "cg", "c2"),
    )
    assert rejected(gunner, fire("cn", {"attack": [2]}, target=who("ogre"))) == "invalid_field"
    assert applied(gunner, fire("cn", {"attack": [2]}))["hit"] is False
    drake = rules_table("pathfinder")
    setup(
        drake,
        creature("fl", **PROFICIENT),
        creature("f2"),
        creature("f3"),
        aimed_engine("fd", "firedrake", square(0, 6)),
        crew("fd", "fl", "f2", "f3"),
    )
    assert rejected(drake, fire("fd", {"operation": [5]})) == "invalid_field"


@rule("PF-LOAD-01")
def test_a_ram_does_not_fire(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(t, engine("rm", "ram_large"), creature("k"), crew("rm", "k"), creature("x", y=1))
    assert rejected(t, fire("rm", target=who("x"))) == "not_a_ranged_engine"


@rule("PF-TIME-04", "PF-TIME-05")
def test_a_leader_busy_with_a_repair_cannot_fire(rules_table: TableFactory) -> None:
    smith = {**PROFICIENT, "skills": {"craft_siege_engine": skill(1, 5)}}
    t = ballista(rules_table, smith)
    setup(t, engine("wreck", "ballista_light", x=3, state={"broken": True}))
    repair = {"type": "repair", "engine_id": "wreck", "by": "lead", "kind": "broken"}
    applied(t, {**repair, "dice": {"check": [15]}})
    assert rejected(t, fire("lb", {"attack": [2]}, target=who("dummy"))) == "creature_busy"


@rule("PF-DIRECT-04", "PF-MAGIC-05", "PF-AMMO-07")
def test_total_cover_is_refused_before_the_area_and_the_siege_mage_checks(rules_table: TableFactory) -> None:
    """§3.13's order: `target_has_total_cover`, then `target_out_of_area`, last `not_a_siege_mage`."""
    tower = (
        engine("st", "siege_tower_large", y=4),
        creature("low", y=4, inside={"engine_id": "st", "level": "lower"}),
    )
    t = ballista(rules_table, target=tower[0])
    setup(t, tower[1])
    assert rejected(t, fire("lb", target=who("low"), empower_spell_level=1)) == "target_has_total_cover"
    assert rejected(t, fire("lb", target={"engine_id": "st"}, empower_spell_level=9)) == "not_a_siege_mage"
    gunner = blast_cannon(rules_table, *tower)
    assert rejected(gunner, fire("cn", target_ids=["far", "low"])) == "target_has_total_cover"
    assert rejected(gunner, fire("cn", target_ids=["far", "st"])) == "target_out_of_area"


@rule("PF-AMMO-07", "PF-ENGINE-03", "PF-GEN-04")
def test_a_target_exactly_at_the_area_s_length_is_inside(rules_table: TableFactory) -> None:
    gunner = rules_table("pathfinder")
    setup(
        gunner,
        creature("cg", bab=4, proficiencies=["firearms"]),
        creature("c2", x=1),
        creature("at30", y=6),
        creature("at35", y=7),
        aimed_engine("cn", "cannon", who("at30"), ammunition="blast_shot"),
        crew("cn", "cg", "c2"),
    )
    assert rejected(gunner, fire("cn", target_ids=["at30", "at35"])) == "target_out_of_area"
    assert applied(gunner, fire("cn", {"attack": [2]}, target_ids=["at30"]))["hit"] is False
    drake = rules_table("pathfinder")
    setup(
        drake,
        creature("fl", **PROFICIENT),
        creature("f2"),
        creature("f3"),
        creature("at60", y=12),
        creature("at35", y=7),
        aimed_engine("fd", "firedrake", square(0, 12)),
        crew("fd", "fl", "f2", "f3"),
    )
    cone = {"shape": "cone", "target_ids": ["at35"]}
    assert rejected(drake, fire("fd", {"operation": [5]}, area=cone)) == "target_out_of_area"
    line = {"shape": "line", "target_ids": ["at60"]}
    assert (
        applied(drake, fire("fd", {"operation": [5], "damage": [1] * 6, "save": [1]}, area=line))["hit"]
        is True
    )


@rule("PF-AMMO-09", "PF-GEN-03")
def test_an_entangling_bolt_reaches_one_size_either_side_of_the_ballista(rules_table: TableFactory) -> None:
    """The light ballista is Large: Medium and Huge may be entangled, Small may not."""
    t = ballista(rules_table, ammunition="entangling_bolt")
    setup(t, creature("small", size="S", y=3), creature("huge", size="H", x=2, y=4))
    assert rejected(t, fire("lb", target=who("small"))) == "target_size_invalid"
    assert applied(t, fire("lb", {"attack": [2]}, target=who("huge")))["hit"] is False


@rule("PF-INDIRECT-05")
@pytest.mark.parametrize(
    ("fields", "seen", "unseen"),
    [({}, 1, 0), ({"line_of_sight": False}, 0, 1), ({"crew_sees_landing": False}, 0, 1)],
)
def test_an_omitted_crew_sees_landing_is_the_line_of_sight(
    rules_table: TableFactory, fields: dict[str, bool], seen: int, unseen: int
) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT, bab=6, skills={"knowledge_engineering": skill(1, 4)}),
        creature("m1", x=1),
        aimed_engine("lc", "catapult_light", square(0, 20)),
        crew("lc", "lead", "m1"),
    )
    dice = {"targeting": [2], "scatter_direction": [1], "scatter_distance": [1], "damage": [1] * 4}
    miss = applied(t, fire("lc", dice, **fields))
    assert (miss["hit"], miss["landing"]["square"]) == (False, at(0, 19))  # d8 1: toward the engine
    successive = miss["engine_after"]["successive"]
    assert (successive["seen_misses"], successive["unseen_misses"]) == (seen, unseen)


@rule("PF-MAGIC-05")
@pytest.mark.parametrize("level", [-1, 10])
def test_an_empower_level_outside_one_to_nine_is_an_invalid_field(
    rules_table: TableFactory, level: int
) -> None:
    """§3.13's fields: `empower_spell_level` is 0 (none) or a spell level 1…9; any other is no field a
    shot may carry, refused before the siege mage is asked for (9 is: `not_a_siege_mage`, above)."""
    t = ballista(rules_table)
    assert rejected(t, fire("lb", {"attack": [2]}, target=who("dummy"), empower_spell_level=level)) == (
        "invalid_field"
    )


@rule("PF-ENGINE-03", "PF-AMMO-07")
def test_a_creature_listed_twice_in_an_area_or_a_blast_is_an_invalid_field(rules_table: TableFactory) -> None:
    """The client lists the creatures an area or a blast shot strikes: each once, or the list is refused
    whole (a creature saving twice against one gout would take its damage twice)."""
    drake = rules_table("pathfinder")
    setup(
        drake,
        creature("fl", **PROFICIENT),
        creature("f2"),
        creature("f3"),
        creature("v1", y=3),
        aimed_engine("fd", "firedrake", square(0, 6)),
        crew("fd", "fl", "f2", "f3"),
    )
    twice = {"shape": "line", "target_ids": ["v1", "v1"]}
    assert rejected(drake, fire("fd", {"damage": [3] * 6}, area=twice)) == "invalid_field"
    gunner = blast_cannon(rules_table)
    assert rejected(gunner, fire("cn", target_ids=["far", "far"])) == "invalid_field"


def blast_cannon(rules_table: TableFactory, *more: dict[str, Any]) -> Table:
    """A cannon loaded with blast shot, crewed by `cg` and `c2`, aimed at `far` 35 ft north; `more` placed
    before `far`."""
    gunner = rules_table("pathfinder")
    setup(
        gunner,
        creature("cg", bab=4, proficiencies=["firearms"]),
        creature("c2", x=1),
        *more,
        creature("far", y=7),
        aimed_engine("cn", "cannon", who("far"), ammunition="blast_shot"),
        crew("cn", "cg", "c2"),
    )
    return gunner
