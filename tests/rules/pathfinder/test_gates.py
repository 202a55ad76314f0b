"""Opening and closing gates (§3.19, PF-STRUCT-08)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    REPAIRER,
    advance,
    applied,
    busy_repairing,
    creature,
    crew,
    engine,
    find,
    rejected,
    setup,
)

rule = pytest.mark.rule
HANDS = tuple(f"p{n}" for n in range(1, 7))


def gate(gid: str, size: str = "L", material: str = "wood", **fields: Any) -> dict[str, Any]:
    return {
        "type": "add_structure",
        "id": gid,
        "kind": "gate",
        "material": material,
        "size": size,
        "position": {"x": 0, "y": 0},
        **fields,
    }


def operate(gid: str, *contributors: str) -> dict[str, Any]:
    return {"type": "operate_gate", "structure_id": gid, "contributors": list(contributors)}


def yard(rules_table: TableFactory, *more: dict[str, Any]) -> Table:
    t = rules_table("pathfinder")
    setup(t, *(creature(p) for p in HANDS), gate("lwg"), gate("hsg", "H", "stone"), *more)
    return t


@rule("PF-STRUCT-08", "PF-TIME-02")
def test_three_creatures_open_a_large_gate_in_one_round(rules_table: TableFactory) -> None:
    t = yard(rules_table)
    result = applied(t, operate("lwg", "p1", "p2", "p3"))
    assert result == {
        "progress": 3,
        "requirement": 3,
        "toggled": True,
        "open": True,
        "round": 1,
        "unused_dice": [],
    }
    lwg = find(t.state(), "structures", "lwg")
    assert (lwg["open"], lwg["gate_progress"]) == (True, 0)
    assert find(t.state(), "creatures", "p1")["actions"] == {"standard": False, "move": False}


@rule("PF-STRUCT-08")
def test_the_next_three_close_it_again(rules_table: TableFactory) -> None:
    t = yard(rules_table)
    applied(t, operate("lwg", "p1", "p2"))
    opened = applied(t, operate("lwg", "p3"))
    assert (opened["progress"], opened["toggled"], opened["open"]) == (3, True, True)
    applied(t, advance())
    closing = applied(t, operate("lwg", "p1"))  # under way: the gate stays open until the third
    assert (closing["progress"], closing["toggled"], closing["open"]) == (1, False, True)
    closed = applied(t, operate("lwg", "p2", "p3"))
    assert (closed["progress"], closed["toggled"], closed["open"]) == (3, True, False)


@rule("PF-STRUCT-08", "PF-STRUCT-03")
def test_a_huge_gate_needs_thirty_actions_three_a_round(rules_table: TableFactory) -> None:
    t = yard(rules_table)
    assert rejected(t, operate("hsg", "p1", "p2", "p3", "p4")) == "too_many_contributors"
    first = applied(t, operate("hsg", "p4", "p5", "p6"))
    assert (first["progress"], first["requirement"], first["toggled"], first["open"]) == (3, 30, False, False)
    for _ in range(9):
        applied(t, advance())
        last = applied(t, operate("hsg", "p4", "p5", "p6"))
    assert (last["progress"], last["toggled"], last["open"], last["round"]) == (30, True, True, 10)


@rule("PF-STRUCT-08")
def test_three_operators_per_gate_per_round_across_commands(rules_table: TableFactory) -> None:
    t = yard(rules_table)
    applied(t, operate("hsg", "p1", "p2"))
    assert rejected(t, operate("hsg", "p3", "p4")) == "too_many_contributors"
    applied(t, operate("hsg", "p3"))
    assert rejected(t, operate("hsg", "p4")) == "too_many_contributors"
    # another gate has its own three
    assert applied(t, operate("lwg", "p4", "p5"))["progress"] == 2
    applied(t, advance())
    assert applied(t, operate("hsg", "p4", "p5", "p6"))["progress"] == 6


@rule("PF-STRUCT-08", "PF-TIME-02")
def test_a_lone_operator_s_count_restarts_with_the_round(rules_table: TableFactory) -> None:
    t = yard(rules_table)
    applied(t, operate("hsg", "p1"))
    applied(t, advance())
    assert find(t.state(), "structures", "hsg")["gate_operators_this_round"] == 0
    assert applied(t, operate("hsg", "p2", "p3", "p4"))["progress"] == 4


@rule("PF-STRUCT-08")
def test_no_more_contributors_than_the_progress_still_needed(rules_table: TableFactory) -> None:
    t = yard(rules_table)
    applied(t, operate("lwg", "p1", "p2"))
    applied(t, advance())
    assert rejected(t, operate("lwg", "p1", "p2")) == "exceeds_remaining"
    assert applied(t, operate("lwg", "p1"))["open"] is True


@rule("PF-STRUCT-08", "PF-TIME-02", "PF-TIME-04")
def test_each_contributor_passes_the_actor_checks(rules_table: TableFactory) -> None:
    t = yard(rules_table, creature("dead", hp=0))
    applied(t, {"type": "break", "structure_id": "hsg", "by": "p2", "dice": {"check": [1]}})
    assert rejected(t, operate("lwg", "p1", "p2")) == "action_unavailable"
    assert rejected(t, operate("lwg", "dead")) == "creature_down"


@rule("PF-STRUCT-08", "PF-STRUCT-05")
def test_only_an_unbreached_gate_is_operated(rules_table: TableFactory) -> None:
    # a gate at half hp or less is broken and breached (PF-STRUCT-05)
    t = yard(
        rules_table,
        {
            "type": "add_structure",
            "id": "wall",
            "kind": "wall",
            "material": "iron",
            "position": {"x": 1, "y": 0},
        },
        gate("smashed", state={"hp": 10}),
    )
    assert rejected(t, operate("wall", "p1")) == "not_a_gate"
    assert rejected(t, operate("smashed", "p1")) == "gate_breached"


@rule("PF-STRUCT-08")
def test_contributors_are_listed_once_and_not_empty(rules_table: TableFactory) -> None:
    t = yard(rules_table)
    assert rejected(t, operate("lwg")) == "invalid_field"
    assert rejected(t, operate("lwg", "p1", "p1")) == "invalid_field"


@rule("PF-STRUCT-08", "PF-TIME-02")
def test_a_full_round_action_needs_the_move_action_too(rules_table: TableFactory) -> None:
    """p1 moved the catapult it crews (a move action): its standard action alone does not operate a gate."""
    t = yard(rules_table, engine("lc", "catapult_light", x=3), crew("lc", "p1", "p2"))
    applied(t, {"type": "move_engine", "engine_id": "lc", "to": {"x": 3, "y": 1}})
    assert find(t.state(), "creatures", "p1")["actions"] == {"standard": True, "move": False}
    assert rejected(t, operate("lwg", "p1")) == "action_unavailable"
    applied(t, operate("lwg", "p3"))


@rule("PF-STRUCT-08", "PF-TIME-04")
def test_a_creature_busy_with_a_repair_does_not_operate_a_gate(rules_table: TableFactory) -> None:
    t = yard(rules_table, creature("smith", **REPAIRER))
    busy_repairing(t, "smith")
    assert rejected(t, operate("lwg", "smith")) == "creature_busy"
