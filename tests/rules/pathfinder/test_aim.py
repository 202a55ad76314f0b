"""Aiming and range (PF-AIM-01..05, PF-ENGINE-08, PF-CREW-05)."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    PROFICIENT,
    advance,
    aim,
    applied,
    at,
    creature,
    crew,
    engine,
    fire,
    rejected,
    setup,
    square,
    who,
)


def battle(rules_table: TableFactory, catalog_id: str, *more: dict[str, object]) -> Table:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT),
        creature("m1"),
        creature("m2"),
        engine("e", catalog_id, assembled=True),
        crew("e", "lead", "m1", "m2"),
        creature("ogre", y=10),
        *more,
    )
    return t


@pytest.mark.rule("PF-AIM-01")
@pytest.mark.parametrize(
    ("catalog_id", "target", "mode"),
    [
        ("ballista_heavy", who("ogre"), "direct"),
        ("ballista_heavy", square(0, 10), None),
        ("catapult_light", square(0, 12), "indirect"),
        ("catapult_light", who("ogre"), None),
        ("bombard_light", who("ogre"), "direct"),
        ("bombard_light", square(0, 12), "indirect"),
        ("firedrake", square(0, 5), "area"),
        ("firedrake", who("ogre"), None),
    ],
)
def test_each_engine_aims_at_its_kind_of_target(
    rules_table: TableFactory, catalog_id: str, target: dict[str, object], mode: str | None
) -> None:
    t = battle(rules_table, catalog_id)
    if mode is None:
        assert rejected(t, aim("e", target)) == "target_kind_invalid"
    else:
        assert applied(t, aim("e", target))["mode"] == mode


@pytest.mark.rule("PF-AIM-05")
def test_engines_without_increment_report_no_range_penalty(rules_table: TableFactory) -> None:
    result = applied(battle(rules_table, "firedrake"), aim("e", square(0, 5)))
    assert result["range"] == {"distance_ft": 25, "increment_ft": None, "increments": None, "penalty": 0}


@pytest.mark.rule("PF-AIM-04")
def test_a_new_target_restarts_aiming(rules_table: TableFactory) -> None:
    t = battle(rules_table, "ballista_heavy", creature("elf", y=8))
    assert applied(t, aim("e", who("ogre"), ("m1", 1)))["aim_progress"] == 1
    switched = applied(t, aim("e", who("elf"), ("m2", 1)))
    assert (switched["aim_target"], switched["aim_progress"], switched["reset"]) == (
        {"creature_id": "elf"},
        1,
        True,
    )
    kept = applied(t, aim("e", who("elf"), ("lead", 1)))
    assert (kept["aim_progress"], kept["aimed"], kept["reset"]) == (2, True, False)
    assert rejected(t, aim("e", who("elf"))) == "already_aimed"


@pytest.mark.rule("PF-AIM-02")
def test_aim_units_may_not_exceed_the_requirement(rules_table: TableFactory) -> None:
    t = battle(rules_table, "ballista_heavy")
    assert rejected(t, aim("e", who("ogre"), ("m1", 1), ("m2", 1), ("lead", 1))) == "exceeds_remaining"


@pytest.mark.rule("PF-AIM-03")
def test_aim_zero_engines_have_no_aiming_step(rules_table: TableFactory) -> None:
    assert rejected(battle(rules_table, "ballista_light"), aim("e", who("ogre"))) == "no_aim_needed"


@pytest.mark.rule("PF-AIM-01", "PF-DEF-06")
def test_a_destroyed_engine_cannot_be_aimed_at(rules_table: TableFactory) -> None:
    t = battle(rules_table, "ballista_heavy", engine("wreck", "ballista_light", y=9, state={"hp": 0}))
    assert rejected(t, aim("e", {"engine_id": "wreck"})) == "target_destroyed"


@pytest.mark.rule("PF-AIM-05", "PF-ENGINE-08")
def test_bombards_halve_their_increment_and_drop_the_minimum_in_direct_mode(
    rules_table: TableFactory,
) -> None:
    t = battle(rules_table, "bombard_standard", creature("close", y=2))
    near = applied(t, aim("e", who("close")))
    assert near["range"] == {"distance_ft": 10, "increment_ft": 75, "increments": 1, "penalty": 0}
    assert rejected(t, aim("e", square(0, 19))) == "below_minimum_range"
    assert applied(t, aim("e", square(0, 20)))["range"]["increment_ft"] == 150


@pytest.mark.rule("PF-AIM-05")
def test_fire_checks_the_range_again(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT),
        creature("walker", y=10),
        engine("lb", "ballista_light", state={"loaded": True}),
        crew("lb", "lead"),
    )
    applied(t, {"type": "move_creature", "creature_id": "walker", "position": at(0, 250)})
    assert rejected(t, fire("lb", target=who("walker"))) == "out_of_range"


@pytest.mark.rule("PF-AIM-02", "PF-CREW-05")
def test_aiming_is_judged_with_the_crew_at_fire_time(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT),
        creature("m1"),
        creature("m2"),
        creature("ogre", y=10),
        engine("hb", "ballista_heavy", state={"loaded": True}),
        crew("hb", "lead", "m1", "m2"),
    )
    assert applied(t, aim("hb", who("ogre"), ("m1", 1), ("m2", 1)))["aimed"] is True
    smaller = applied(t, crew("hb", "lead", "m1"))
    assert (smaller["aim_requirement"], smaller["aimed"]) == (4, False)
    applied(t, advance())
    assert rejected(t, fire("hb")) == "not_aimed"


@pytest.mark.rule("PF-AIM-01")
@pytest.mark.parametrize(
    "target",
    [{"creature_id": "ogre", "square": {"x": 0, "y": 10}}, {"creature_id": "ogre", "engine_id": "e"}, {}],
)
def test_a_target_naming_several_things_or_none_is_an_invalid_field(
    rules_table: TableFactory, target: dict[str, object]
) -> None:
    t = battle(rules_table, "ballista_heavy")
    assert rejected(t, aim("e", target)) == "invalid_field"
