"""Loading (PF-LOAD-01..04, PF-AMMO-01, PF-FEAT-03)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    PROFICIENT,
    advance,
    aimed_engine,
    applied,
    creature,
    crew,
    engine,
    fire,
    load,
    rejected,
    setup,
    skill,
    square,
)

MASTER: dict[str, Any] = {
    "skills": {"knowledge_engineering": skill(10, 10)},
    "feats": ["siege_engineer", "master_siege_engineer"],
    "proficiencies": ["siege_engines"],
}


def catapult(rules_table: TableFactory, leader: dict[str, Any] | None = None, **fields: Any) -> Table:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **(leader or PROFICIENT)),
        creature("mate"),
        engine("lc", "catapult_light", **fields),
        crew("lc", "lead", "mate"),
    )
    return t


@pytest.mark.rule("PF-LOAD-01", "PF-LOAD-02", "PF-LOAD-03")
def test_a_loading_cycle_reaches_the_requirement_and_keeps_its_ammunition(rules_table: TableFactory) -> None:
    t = catapult(rules_table)
    first = applied(t, load("lc", ("lead", 1), ("mate", 1), ammunition="bomb"))
    assert first == {
        "units_added": 2,
        "load_progress": 2,
        "load_requirement": 3,
        "loaded": False,
        "ammunition": "bomb",
        "round": 1,
        "unused_dice": [],
    }
    applied(t, advance())
    assert rejected(t, load("lc", ("lead", 1), ammunition="liquid_ice")) == "ammunition_mismatch"
    done = applied(t, load("lc", ("lead", 1)))
    assert (done["loaded"], done["ammunition"]) == (True, "bomb")
    assert rejected(t, load("lc", ("mate", 1))) == "already_loaded"


@pytest.mark.rule("PF-LOAD-02")
def test_contributions_may_not_exceed_what_is_left(rules_table: TableFactory) -> None:
    t = catapult(rules_table, MASTER)
    assert rejected(t, load("lc", ("lead", 2), ("mate", 2))) == "exceeds_remaining"
    assert applied(t, load("lc", ("lead", 2), ("mate", 1)))["loaded"] is True


@pytest.mark.rule("PF-LOAD-02", "PF-TIME-02")
def test_each_contributor_must_be_crew_with_the_actions_left(rules_table: TableFactory) -> None:
    t = catapult(rules_table)
    setup(t, creature("stranger"))
    assert rejected(t, load("lc", ("stranger", 1))) == "not_crew"
    assert rejected(t, load("lc", ("mate", 2))) == "too_many_actions"
    applied(t, load("lc", ("mate", 1)))
    assert rejected(t, load("lc", ("mate", 1))) == "action_unavailable"


@pytest.mark.rule("PF-FEAT-03", "PF-TIME-02")
def test_with_a_master_siege_engineer_a_unit_is_a_move_action(rules_table: TableFactory) -> None:
    t = catapult(rules_table, MASTER)
    applied(t, load("lc", ("lead", 1)))
    applied(t, load("lc", ("lead", 1)))  # the standard action stands in for the second move
    assert rejected(t, load("lc", ("lead", 1))) == "action_unavailable"


@pytest.mark.rule("PF-FEAT-03", "PF-LOAD-02", "PF-TIME-02")
def test_two_actions_offered_spend_both_of_the_contributor_s_move_actions(rules_table: TableFactory) -> None:
    t = catapult(rules_table, MASTER)
    assert applied(t, load("lc", ("lead", 2)))["units_added"] == 2
    # both of the round's move actions are gone (the second one the standard action), not one
    assert rejected(t, load("lc", ("lead", 1))) == "action_unavailable"
    assert applied(t, load("lc", ("mate", 1)))["loaded"] is True


@pytest.mark.rule("PF-LOAD-02")
def test_a_contributor_named_twice_in_one_load_is_refused(rules_table: TableFactory) -> None:
    # one creature's actions are offered once: listed twice, the load is no single set of contributions
    t = catapult(rules_table, MASTER)
    assert rejected(t, load("lc", ("lead", 1), ("lead", 1))) == "invalid_field"
    assert applied(t, load("lc", ("lead", 1), ("mate", 1)))["units_added"] == 2


@pytest.mark.rule("PF-LOAD-03", "PF-AMMO-01")
def test_incompatible_ammunition_is_refused(rules_table: TableFactory) -> None:
    t = catapult(rules_table)
    assert rejected(t, load("lc", ("lead", 1), ammunition="chain_shot")) == "incompatible_ammunition"
    assert rejected(t, load("lc", ("lead", 1), ammunition="entangling_bolt")) == "incompatible_ammunition"


@pytest.mark.rule("PF-LOAD-01", "PF-CREW-03", "PF-ASSEMBLE-05")
def test_engine_checks_come_first(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("a"),
        creature("b"),
        *(creature(f"r{n}") for n in range(5)),
        engine("cs", "catapult_standard"),
        engine("ram", "ram_large"),
        engine("lb", "ballista_light"),
    )
    applied(t, crew("cs", "a"))
    assert rejected(t, load("cs", ("a", 1))) == "engine_not_assembled"
    assert rejected(t, load("lb", ("b", 1))) == "no_crew"
    applied(t, crew("ram", *(f"r{n}" for n in range(5))))
    assert rejected(t, load("ram", ("r0", 1))) == "not_a_ranged_engine"


@pytest.mark.rule("PF-LOAD-04")
def test_firing_empties_the_engine_even_on_a_miss(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT),
        creature("mate"),
        aimed_engine("lc", "catapult_light", square(0, 20)),
        crew("lc", "lead", "mate"),
    )
    shot = applied(
        t,
        fire(
            "lc",
            {"targeting": [2], "scatter_direction": [1], "scatter_distance": [1], "damage": [1, 1, 1, 1]},
        ),
    )
    assert shot["hit"] is False and shot["engine_after"]["loaded"] is False
    applied(t, advance())
    assert applied(t, load("lc", ("mate", 1)))["load_progress"] == 1
