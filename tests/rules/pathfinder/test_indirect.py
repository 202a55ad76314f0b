"""Indirect fire (PF-INDIRECT-01..08): targeting checks, what a landing hits, successive shots, observers."""

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
    fire,
    labels,
    rejected,
    setup,
    skill,
    square,
)

KNOWS: dict[str, Any] = {"bab": 6, "skills": {"knowledge_engineering": skill(1, 4)}}


def battery(
    rules_table: TableFactory,
    catalog_id: str,
    aimed: tuple[int, int],
    *more: dict[str, Any],
    leader: dict[str, Any] | None = None,
    **state: Any,
) -> Table:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **(leader or {**PROFICIENT, **KNOWS})),
        creature("m1"),
        creature("m2"),
        creature("m3"),
        aimed_engine("e", catalog_id, square(*aimed), assembled=True, **state),
        crew("e", "lead", "m1", "m2", "m3"),
        *more,
    )
    return t


@pytest.mark.rule("PF-INDIRECT-01", "PF-INDIRECT-02")
def test_untrained_leaders_use_intelligence(rules_table: TableFactory) -> None:
    t = battery(rules_table, "catapult_heavy", (0, 40), leader={"bab": 2, "int_mod": 3, **PROFICIENT})
    shot = applied(t, fire("e", {"targeting": [20], "confirm": [1], "damage": [1] * 8}))
    assert labels(shot["roll"]) == {"bab": 2, "int": 3}
    assert (shot["roll"]["target_number"], shot["roll"]["total"]) == (25, 25)


@pytest.mark.rule("PF-INDIRECT-03", "PF-INDIRECT-07")
def test_a_hit_lands_on_the_aimed_square_and_damages_an_empty_square(rules_table: TableFactory) -> None:
    outcome = battery(
        rules_table, "bombard_heavy", (0, 40), leader={"proficiencies": ["firearms"], **KNOWS}
    ).send(fire("e", {"targeting": [20], "confirm": [2], "damage": [1] * 9}))
    shot = outcome["result"]
    assert (shot["hit"], shot["landing"], shot["effects"], shot["damage"]["total"]) == (
        True,
        {"square": at(0, 40), "scatter": None},
        [],
        9,
    )


@pytest.mark.rule("PF-INDIRECT-07", "PF-INDIRECT-08")
def test_bombards_allow_no_save_and_catapults_do(rules_table: TableFactory) -> None:
    victim = creature("v", hp=50, saves={"ref": 30}, y=40)
    bombard = battery(
        rules_table, "bombard_heavy", (0, 40), victim, leader={"proficiencies": ["firearms"], **KNOWS}
    )
    shot = applied(bombard, fire("e", {"targeting": [15], "damage": [2] * 9}))
    assert (effect(shot, "v")["save"], effect(shot, "v")["hp_after"]) == (None, 32)
    catapult = battery(rules_table, "catapult_heavy", (0, 40), victim)
    shot = applied(catapult, fire("e", {"targeting": [19], "damage": [2] * 8, "save": [2]}))
    saved = effect(shot, "v")
    assert (saved["save"]["dc"], saved["save"]["success"], saved["damage_after_save"], saved["hp_after"]) == (
        25,
        True,
        8,
        42,
    )


@pytest.mark.rule("PF-INDIRECT-07", "PF-STRUCT-04")
def test_results_list_creatures_then_engines_then_the_lowest_standing_wall(rules_table: TableFactory) -> None:
    t = battery(
        rules_table,
        "bombard_heavy",
        (0, 40),
        {"type": "add_structure", "id": "low", "kind": "wall", "material": "iron", "position": at(0, 40)},
        {"type": "add_structure", "id": "high", "kind": "wall", "material": "iron", "stacked_on": "low"},
        aimed_engine("cart", "ballista_light", y=40),
        creature("late", hp=80, y=40),
        leader={"proficiencies": ["firearms"], **KNOWS},
    )
    shot = applied(t, fire("e", {"targeting": [15], "damage": [3] * 9}))
    assert [(e["entity_kind"], e["entity_id"]) for e in shot["effects"]] == [
        ("creature", "late"),
        ("engine", "cart"),
        ("structure", "low"),
    ]


@pytest.mark.rule("PF-INDIRECT-05")
def test_an_unseen_miss_waits_for_an_observer(rules_table: TableFactory) -> None:
    t = battery(rules_table, "catapult_heavy", (0, 40), creature("scout", y=30))
    miss = applied(
        t,
        fire(
            "e",
            {"targeting": [2], "scatter_direction": [1], "scatter_distance": [1], "damage": [1] * 8},
            crew_sees_landing=False,
        ),
    )
    assert miss["engine_after"]["successive"] == {
        "seen_misses": 0,
        "unseen_misses": 1,
        "reported_misses": 0,
        "hit": False,
    }
    seen = applied(t, {"type": "observe", "engine_id": "e", "observer_id": "scout"})
    assert (seen["reported_now"], seen["reported_misses"], seen["next_successive_modifier"]) == (1, 1, 1)
    assert rejected(t, {"type": "observe", "engine_id": "e", "observer_id": "scout"}) == "nothing_to_report"


@pytest.mark.rule("PF-INDIRECT-06")
def test_a_fallen_observer_reports_nothing(rules_table: TableFactory) -> None:
    t = battery(
        rules_table, "catapult_heavy", (0, 40), creature("scout", hp=0, y=30), successive={"unseen_misses": 2}
    )
    assert rejected(t, {"type": "observe", "engine_id": "e", "observer_id": "scout"}) == "creature_down"


@pytest.mark.rule("PF-INDIRECT-04", "PF-INDIRECT-05")
def test_crew_sees_landing_defaults_to_line_of_sight(rules_table: TableFactory) -> None:
    t = battery(rules_table, "catapult_heavy", (0, 40))
    blind = applied(
        t,
        fire(
            "e",
            {"targeting": [2], "scatter_direction": [1], "scatter_distance": [1], "damage": [1] * 8},
            line_of_sight=False,
            crew_sees_landing=True,
        ),
    )
    assert labels(blind["roll"])["no_line_of_sight"] == -6
    assert blind["engine_after"]["successive"]["seen_misses"] == 1


@pytest.mark.rule("PF-ENGINE-05")
def test_springal_bursts_reach_fifteen_feet_without_save(rules_table: TableFactory) -> None:
    stats = {"stat_overrides": {"targeting_dc": 15, "hardness": 5, "hp": 100}}
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT, **KNOWS),
        creature("m1"),
        creature("m2"),
        aimed_engine("sp", "springal_arrow", square(0, 30)) | stats,
        crew("sp", "lead", "m1", "m2"),
        creature("a", hp=40, y=33),
        creature("b", hp=40, y=34),
        {"type": "add_structure", "id": "w", "kind": "wall", "material": "iron", "position": at(3, 30)},
    )
    shot = applied(t, fire("sp", {"targeting": [15], "damage": [8, 8, 8]}))
    assert [(e["entity_id"], e["zone"], e["damage_in"], e["save"]) for e in shot["effects"]] == [
        ("a", "burst", 24, None),
        ("w", "burst", 24, None),
    ]


@pytest.mark.rule("PF-INDIRECT-01", "PF-MAGIC-05", "PF-GEN-12")
def test_a_siege_mage_s_empower_and_the_wind_enter_the_targeting_check(rules_table: TableFactory) -> None:
    """A hurricane's −8 and empower 2 (+2 to the check, +6 static damage), labelled in the spec's order."""
    mage = {**PROFICIENT, **KNOWS, "features": ["siege_mage"]}
    t = battery(rules_table, "catapult_heavy", (0, 40), leader=mage)
    applied(t, {"type": "set_wind", "level": "hurricane"})
    shot = applied(t, fire("e", {"targeting": [19], "damage": [1] * 8}, empower_spell_level=2))
    assert [(m["label"], m["value"]) for m in shot["roll"]["modifiers"]] == [
        ("bab", 6),
        ("knowledge_engineering", 4),
        ("empower", 2),
        ("wind", -8),
    ]
    assert (shot["roll"]["total"], shot["hit"], shot["damage"]["static"]) == (23, False, 6)


@pytest.mark.rule("PF-INDIRECT-05")
@pytest.mark.parametrize(("seen_misses", "bonus"), [(4, 8), (5, 10), (6, 10)])
def test_seen_misses_add_two_each_up_to_ten(rules_table: TableFactory, seen_misses: int, bonus: int) -> None:
    t = battery(rules_table, "catapult_heavy", (0, 40), successive={"seen_misses": seen_misses})
    shot = applied(t, fire("e", {"targeting": [10], "damage": [1] * 8}))
    assert labels(shot["roll"])["successive_misses_seen"] == bonus


@pytest.mark.rule("PF-MISFIRE-04", "PF-MISFIRE-05", "PF-INDIRECT-05")
def test_an_exploding_rocket_springal_counts_no_miss(rules_table: TableFactory) -> None:
    """Only a misfire that does not explode counts as a miss (PF-MISFIRE-05): the counts stand."""
    stats = {"stat_overrides": {"targeting_dc": 20, "hardness": 5, "hp": 100}}
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT, **KNOWS),
        creature("m1", x=4),
        creature("m2", x=5),
        aimed_engine("rs", "springal_rocket", square(0, 30), successive={"seen_misses": 1}) | stats,
        crew("rs", "lead", "m1", "m2"),
    )
    boom = applied(
        t, fire("rs", {"targeting": [1], "explosion_damage": [1, 1, 1], "explosion_reflex": [1, 1]})
    )
    assert (boom["exploded"], boom["engine_after"]["destroyed"]) == (True, True)
    assert boom["engine_after"]["successive"] == {
        "seen_misses": 1,
        "unseen_misses": 0,
        "reported_misses": 0,
        "hit": False,
    }
