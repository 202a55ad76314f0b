"""Crews: assignment, Medium equivalents, status and what the crew's size and leader change (PF-CREW-*)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import applied, creature, crew, engine, find, rejected, setup, skill

MASTER: dict[str, Any] = {
    "feats": ["siege_engineer", "master_siege_engineer"],
    "proficiencies": ["ballista_heavy"],
    "skills": {"knowledge_engineering": skill(10, 10)},
}


def crewed(table: Table, catalog_id: str, sizes: list[str], **engine_fields: Any) -> dict[str, Any]:
    ids = [f"m{n}" for n in range(len(sizes))]
    setup(
        table,
        engine("e", catalog_id, **engine_fields),
        *(creature(i, size=s) for i, s in zip(ids, sizes, strict=True)),
    )
    return applied(table, crew("e", *ids))


@pytest.mark.rule("PF-CREW-02", "PF-CREW-03", "PF-CREW-06")
@pytest.mark.parametrize(
    ("catalog_id", "sizes", "equivalents", "status"),
    [
        ("ballista_gate_breaker", ["L", "M"], 5, "full"),
        ("ram_colossal", ["H", "H"], 16, "diminished"),
        ("catapult_heavy", ["G"], 16, "full"),
        ("siege_tower_colossal", ["C"], 20, "diminished"),
        ("ram_large", ["S"] * 10, 5, "full"),
        ("ram_large", ["S"] * 9, 4.5, "diminished"),
        ("ballista_light", ["S"], 0.5, "insufficient"),
        ("ballista_light", ["T"], 0, "insufficient"),
    ],
)
def test_crew_equivalents_and_status(
    rules_table: TableFactory, catalog_id: str, sizes: list[str], equivalents: float, status: str
) -> None:
    result = crewed(rules_table("pathfinder"), catalog_id, sizes, assembled=True)
    assert (result["crew_equivalents"], result["crew_status"]) == (equivalents, status)
    assert type(result["crew_equivalents"]) is type(equivalents)


@pytest.mark.rule("PF-CREW-02")
def test_the_printed_option_swaps_gargantuan_and_colossal(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder", options={"crew_equivalence": "printed"})
    assert crewed(table, "siege_tower_colossal", ["G", "C"])["crew_equivalents"] == 36
    table = rules_table("pathfinder", options={"crew_equivalence": "printed"})
    assert crewed(table, "ram_colossal", ["G"])["crew_equivalents"] == 20


@pytest.mark.rule("PF-CREW-01", "PF-CREW-04", "PF-AIM-02", "PF-LOAD-01", "PF-DIRECT-02")
def test_a_diminished_heavy_ballista_crew(rules_table: TableFactory) -> None:
    result = crewed(rules_table("pathfinder"), "ballista_heavy", ["M", "M"])
    assert result == {
        "crew_equivalents": 2,
        "crew_status": "diminished",
        "aim_requirement": 4,
        "load_requirement": 3,
        "action_unit": "full_round",
        "size_penalty_helpers": 1,
        "aim_progress": 0,
        "aimed": False,
        "round": 1,
        "unused_dice": [],
    }


@pytest.mark.rule("PF-CREW-04", "PF-LOAD-01")
def test_the_option_doubles_the_load_of_a_diminished_crew(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder", options={"diminished_doubles_load": True})
    assert crewed(table, "ballista_heavy", ["M", "M"])["load_requirement"] == 6


@pytest.mark.rule("PF-FEAT-03", "PF-CREW-04")
def test_a_master_siege_engineer_leader_works_in_move_actions(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    setup(table, engine("hb", "ballista_heavy"), creature("master", **MASTER), creature("m2"))
    result = applied(table, crew("hb", "master", "m2"))
    assert (result["aim_requirement"], result["load_requirement"], result["action_unit"]) == (4, 3, "move")


@pytest.mark.rule("PF-DIRECT-02")
def test_helpers_are_crew_at_most_three_sizes_below_the_engine(rules_table: TableFactory) -> None:
    result = crewed(rules_table("pathfinder"), "ballista_heavy", ["M", "T", "S", "M"])
    assert result["size_penalty_helpers"] == 2


@pytest.mark.rule("PF-CREW-01")
def test_a_creature_crews_one_engine_at_a_time(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    setup(table, engine("a", "ballista_light"), engine("b", "ballista_light"), creature("x"), creature("y"))
    applied(table, crew("a", "x"))
    assert rejected(table, crew("b", "y", "x")) == "already_crewing"
    applied(table, crew("a", "y"))  # replaces the crew of a: x is released
    applied(table, crew("b", "x"))
    state = table.state()
    assert find(state, "creatures", "x")["crewing"] == "b" and find(state, "creatures", "y")["crewing"] == "a"
    assert find(state, "engines", "a")["crew_ids"] == ["y"]


@pytest.mark.rule("PF-CREW-01")
def test_the_leader_must_be_in_the_crew_and_members_up(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    setup(table, engine("a", "ballista_light"), creature("x"), creature("y"), creature("dead", hp=0))
    assert rejected(
        table, {"type": "assign_crew", "engine_id": "a", "creature_ids": ["x"], "leader_id": "y"}
    ) == ("leader_not_in_crew")
    assert rejected(table, crew("a", "x", "dead")) == "creature_down"


@pytest.mark.rule("PF-CREW-05", "PF-AIM-02")
def test_aim_progress_is_kept_and_judged_against_the_new_crew(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    setup(
        table,
        creature("dummy", y=4),
        creature("arc"),
        creature("h1"),
        engine("hb", "ballista_heavy", state={"aimed_at": {"creature_id": "dummy"}}),
    )
    result = applied(table, crew("hb", "arc", "h1"))
    assert (result["crew_status"], result["aim_requirement"], result["aim_progress"], result["aimed"]) == (
        "diminished",
        4,
        4,
        True,
    )


@pytest.mark.rule("PF-ASSEMBLE-05", "PF-CREW-01")
def test_an_unassembled_engine_may_be_crewed(rules_table: TableFactory) -> None:
    result = crewed(rules_table("pathfinder"), "catapult_standard", ["M", "M", "M"])
    assert result["crew_status"] == "full"


@pytest.mark.rule("PF-CREW-03")
def test_assault_bridges_have_no_crew_status(rules_table: TableFactory) -> None:
    result = crewed(rules_table("pathfinder"), "bridge_assault_large", ["M"])
    assert (result["crew_status"], result["aim_requirement"], result["aimed"]) == (None, None, None)
