"""Rounds, action budgets, scheduled effects, wind and engine spells (PF-TIME-*, PF-GEN-12, PF-MAGIC-04)."""

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


@pytest.mark.rule("PF-GEN-12")
@pytest.mark.parametrize(
    ("level", "modifier"),
    [("none", 0), ("severe", 0), ("windstorm", -4), ("storm", -4), ("hurricane", -8), ("tornado", None)],
)
def test_wind_levels_and_their_siege_modifier(
    rules_table: TableFactory, level: str, modifier: int | None
) -> None:
    table = rules_table("pathfinder")
    result = applied(table, {"type": "set_wind", "level": level})
    assert (result["wind"], result["siege_modifier"]) == (level, modifier)
    assert table.state()["wind"] == level


@pytest.mark.rule("PF-MAGIC-04", "PF-MAGIC-03", "PF-TIME-03")
def test_a_greater_spell_lasts_its_duration_then_expires(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    setup(table, engine("hb", "ballista_heavy"))
    cast = {
        "type": "cast_engine_spell",
        "engine_id": "hb",
        "spell": "greater_magic_siege_engine",
        "caster_level": 9,
        "duration_rounds": 10,
    }
    result = applied(table, cast)
    assert (result["spell_bonus"], result["effective_enhancement"], result["expires_at_round"]) == (2, 2, 11)
    assert applied(table, {"type": "advance_round", "rounds": 9})["completed"] == []
    done = applied(table, {"type": "advance_round"})
    assert done["completed"] == [
        {"round": 11, "kind": "spell_expiry", "entity_id": "hb", "effect": {"effective_enhancement": 0}}
    ]
    assert find(table.state(), "engines", "hb")["spell"] is None


@pytest.mark.rule("PF-MAGIC-04")
def test_spells_do_not_stack_with_the_engine_enhancement(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    setup(table, engine("hb", "ballista_heavy", masterwork=True, enhancement=1))
    cast = {
        "type": "cast_engine_spell",
        "engine_id": "hb",
        "spell": "magic_siege_engine",
        "caster_level": 3,
        "duration_rounds": 30,
    }
    assert applied(table, cast)["effective_enhancement"] == 1
    low = {**cast, "spell": "greater_magic_siege_engine", "caster_level": 2}
    assert applied(table, low)["spell_bonus"] == 1
    big = {**cast, "spell": "greater_magic_siege_engine", "caster_level": 40}
    assert applied(table, big)["spell_bonus"] == 5


@pytest.mark.rule("PF-MAGIC-04", "PF-TIME-03")
def test_a_new_cast_replaces_the_pending_expiry(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    setup(table, engine("hb", "ballista_heavy"))
    cast = {
        "type": "cast_engine_spell",
        "engine_id": "hb",
        "spell": "magic_siege_engine",
        "caster_level": 1,
        "duration_rounds": 2,
    }
    applied(table, cast)
    applied(table, {**cast, "duration_rounds": 5})
    assert applied(table, {"type": "advance_round", "rounds": 2})["completed"] == []
    assert find(table.state(), "engines", "hb")["spell"]["expires_at_round"] == 6
    assert [c["round"] for c in applied(table, {"type": "advance_round", "rounds": 10})["completed"]] == [6]


@pytest.mark.rule("PF-MAGIC-04", "PF-DEF-06")
def test_no_spell_on_a_destroyed_engine(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    setup(table, engine("hb", "ballista_heavy", state={"hp": 0}))
    cast = {
        "type": "cast_engine_spell",
        "engine_id": "hb",
        "spell": "magic_siege_engine",
        "caster_level": 1,
        "duration_rounds": 2,
    }
    assert rejected(table, cast) == "engine_destroyed"
