"""Engine spells (PF-MAGIC-03/04, PF-TIME-03): `cast_engine_spell`, its duration and expiry."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.rules.pathfinder.given import applied, engine, find, rejected, setup


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


@pytest.mark.rule("PF-MAGIC-04")
@pytest.mark.parametrize(
    ("spell", "caster_level", "bonus"),
    [
        ("magic_siege_engine", 12, 1),  # the lesser spell is +1 whatever the caster level
        ("magic_siege_engine", 40, 1),
        ("greater_magic_siege_engine", 7, 1),  # floor(7 / 4) = 1
        ("greater_magic_siege_engine", 8, 2),
        ("greater_magic_siege_engine", 12, 3),
        ("greater_magic_siege_engine", 19, 4),
        ("greater_magic_siege_engine", 20, 5),
        ("greater_magic_siege_engine", 24, 5),  # at most +5
    ],
)
def test_the_spell_bonus_by_spell_and_caster_level(
    rules_table: TableFactory, spell: str, caster_level: int, bonus: int
) -> None:
    table = rules_table("pathfinder")
    setup(table, engine("hb", "ballista_heavy"))
    cast = {"type": "cast_engine_spell", "engine_id": "hb", "spell": spell, "caster_level": caster_level,
            "duration_rounds": 1}  # fmt: skip
    result = applied(table, cast)
    assert (result["spell_bonus"], result["effective_enhancement"], result["expires_at_round"]) == (
        bonus,
        bonus,
        2,
    )


@pytest.mark.rule("PF-MAGIC-04")
@pytest.mark.parametrize(
    "fields", [{"caster_level": 0}, {"caster_level": 41}, {"duration_rounds": 0}], ids=repr
)
def test_a_caster_level_or_duration_outside_its_range_is_invalid(
    rules_table: TableFactory, fields: dict[str, int]
) -> None:
    table = rules_table("pathfinder")
    setup(table, engine("hb", "ballista_heavy"))
    cast = {"type": "cast_engine_spell", "engine_id": "hb", "spell": "magic_siege_engine", "caster_level": 1,
            "duration_rounds": 1}  # fmt: skip
    assert rejected(table, {**cast, **fields}) == "invalid_field"
