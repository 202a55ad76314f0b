"""Rounds, action budgets and `advance_round` (PF-TIME-*)."""

from __future__ import annotations

import pytest

from rules.pathfinder.state import Actions
from rules.pathfinder.time import can_spend, spend
from tests.conftest import TableFactory
from tests.rules.pathfinder.given import applied, engine, find, rejected, setup


@pytest.mark.rule("PF-TIME-01")
def test_advance_round_moves_the_counter(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    assert applied(table, {"type": "advance_round"}) == {
        "round_before": 1,
        "round_after": 2,
        "completed": [],
        "round": 2,
        "unused_dice": [],
    }
    assert applied(table, {"type": "advance_round", "rounds": 10})["round_after"] == 12


@pytest.mark.rule("PF-TIME-02")
def test_a_full_round_action_needs_and_uses_both_actions() -> None:
    fresh = Actions()
    assert spend(fresh, "full_round") == Actions(standard=False, move=False)
    assert not can_spend(Actions(standard=True, move=False), "full_round")


@pytest.mark.rule("PF-TIME-02")
def test_a_move_action_falls_back_on_the_standard_action() -> None:
    assert spend(Actions(), "move") == Actions(standard=True, move=False)
    assert spend(Actions(), "move", 2) == Actions(standard=False, move=False)
    assert not can_spend(Actions(), "move", 3)
    assert not can_spend(Actions(standard=False, move=True), "standard")


@pytest.mark.rule("PF-TIME-02")
def test_advance_round_restores_every_budget(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    setup(
        table,
        {"type": "add_creature", "id": "c", "size": "M", "ac": 10, "hp": 10, "position": {"x": 0, "y": 0}},
    )
    applied(table, {"type": "advance_round"})
    assert find(table.state(), "creatures", "c")["actions"] == {"standard": True, "move": True}


@pytest.mark.rule("PF-TIME-01")
@pytest.mark.parametrize("rounds", [0, -1])
def test_advancing_by_no_round_or_less_is_invalid(rules_table: TableFactory, rounds: int) -> None:
    table = rules_table("pathfinder")
    assert rejected(table, {"type": "advance_round", "rounds": rounds}) == "invalid_field"
    assert table.state()["round"] == 1


@pytest.mark.rule("PF-TIME-03", "PF-MAGIC-04")
def test_effects_due_in_one_advance_complete_by_due_round_then_in_the_order_they_were_scheduled(
    rules_table: TableFactory,
) -> None:
    table = rules_table("pathfinder")
    setup(
        table,
        engine("a", "ballista_heavy"),
        engine("b", "ballista_heavy", x=2),
        engine("c", "ballista_heavy", x=4),
    )
    for engine_id, duration in (("a", 4), ("b", 2), ("c", 4)):  # a due at 5, b at 3, c at 5 after a
        cast = {"type": "cast_engine_spell", "engine_id": engine_id, "spell": "magic_siege_engine",
                "caster_level": 1, "duration_rounds": duration}  # fmt: skip
        applied(table, cast)
    completed = applied(table, {"type": "advance_round", "rounds": 10})["completed"]
    assert [(c["round"], c["entity_id"]) for c in completed] == [(3, "b"), (5, "a"), (5, "c")]
