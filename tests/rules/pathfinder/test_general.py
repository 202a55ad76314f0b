"""General rules: sizes, distance, exact arithmetic, the dice stream and the wire conventions (PF-GEN-*)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.pathfinder.geometry import distance_ft, half, number
from rules.pathfinder.sizes import from_french, size_index, size_modifier
from rules.pathfinder.state import Square
from tests.conftest import TableFactory
from tests.rules.pathfinder.given import applied, creature, engine, rejected


@pytest.mark.rule("PF-GEN-03")
def test_size_categories_have_their_index_modifier_and_french_code() -> None:
    assert [size_index(s) for s in "FDTSMLHGC"] == list(range(9))
    assert [size_modifier(s) for s in "FDTSMLHGC"] == [8, 4, 2, 1, 0, -1, -2, -4, -8]
    assert from_french("G") == "L" and from_french("Gig") == "G" and from_french("TG") == "H"


@pytest.mark.rule("PF-GEN-04")
@pytest.mark.parametrize(
    ("a", "b", "feet"),
    [
        ((0, 0), (0, 8), 40),
        ((0, 0), (30, 30), 225),
        ((0, 0), (1, 1), 5),
        ((0, 0), (2, 2), 15),
        ((3, -2), (0, 0), 20),
    ],
)
def test_every_second_diagonal_costs_ten_feet(a: tuple[int, int], b: tuple[int, int], feet: int) -> None:
    assert distance_ft(Square(x=a[0], y=a[1]), Square(x=b[0], y=b[1])) == feet


@pytest.mark.rule("PF-GEN-05")
def test_halving_rounds_down_and_fractions_stay_exact() -> None:
    assert half(9) == 4 and half(-9) == -5
    assert number(Fraction(9, 2)) == 4.5 and number(Fraction(4)) == 4 and isinstance(number(Fraction(4)), int)


@pytest.mark.rule("PF-GEN-06")
def test_a_supplied_slot_never_drawn_is_listed_by_name(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    result = applied(table, {**creature("c"), "dice": {"attack": [3], "save": 4}})
    assert result["unused_dice"] == ["attack", "save"]
    assert result["round"] == 1


@pytest.mark.rule("PF-GEN-06")
def test_a_die_above_its_faces_is_rejected_before_anything_else(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    assert rejected(table, {**engine("e", "no_such_engine"), "dice": {"scatter_direction": [9]}}) == (
        "dice_value_out_of_range"
    )


@pytest.mark.rule("PF-GEN-06")
def test_unknown_ids_are_rejected_before_dice_faces(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    command = {"type": "assign_crew", "engine_id": "ghost", "creature_ids": ["x"], "leader_id": "x"}
    assert rejected(table, {**command, "dice": {"check": [21]}}) == "unknown_entity"


@pytest.mark.rule("PF-GEN-01")
def test_ids_are_unique_across_creatures_engines_and_structures(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(table, creature("x"))
    assert rejected(table, engine("x", "ballista_light")) == "duplicate_id"
    wall = {
        "type": "add_structure",
        "id": "x",
        "kind": "wall",
        "material": "iron",
        "position": {"x": 0, "y": 0},
    }
    assert rejected(table, wall) == "duplicate_id"


@pytest.mark.rule("PF-GEN-02")
def test_options_are_fixed_at_creation_with_the_spec_defaults(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder", options={"max_range_increments": 12})
    options = table.state()["options"]
    assert options["max_range_increments"] == 12
    assert options["crew_equivalence"] == "aon" and options["validate_feat_prerequisites"] is True


@pytest.mark.rule("PF-GEN-06")
def test_the_state_survives_an_exact_json_round_trip(rules_table: TableFactory) -> None:
    from rules.registry import get_ruleset

    table = rules_table("pathfinder")
    applied(table, creature("c", inside=None, saves={"ref": 2}))
    applied(
        table,
        engine(
            "g",
            "gallery_large",
            armor={"armor_bonus": 2, "category": "light", "metal": False, "base_price_gp": 10},
        ),
    )
    ruleset = get_ruleset("pathfinder")
    state = table.state()
    assert ruleset.encode_state(ruleset.decode_state(state)) == state


@pytest.mark.rule("PF-GEN-06", "PF-INDIRECT-05", "PF-MAGIC-04")
def test_a_battle_in_full_swing_survives_the_round_trip(rules_table: TableFactory) -> None:
    from rules.registry import get_ruleset
    from tests.rules.pathfinder.given import PROFICIENT, aimed_engine, crew, fire, setup, skill, square

    table = rules_table("pathfinder")
    setup(
        table,
        creature("lead", bab=5, skills={"knowledge_engineering": skill(3, 9)}, **PROFICIENT),
        creature("mate", x=1),
        aimed_engine("lc", "catapult_light", square(0, 20), ammunition="smoke_shot"),
        crew("lc", "lead", "mate"),
        creature("target", y=20),
        {
            "type": "add_structure",
            "id": "w",
            "kind": "wall",
            "material": "iron",
            "position": {"x": 0, "y": 21},
        },
        {
            "type": "cast_engine_spell",
            "engine_id": "lc",
            "spell": "magic_siege_engine",
            "caster_level": 1,
            "duration_rounds": 3,
        },
    )
    applied(
        table,
        fire(
            "lc",
            {"targeting": [2], "scatter_direction": [1], "scatter_distance": [1], "damage": [1, 1]},
            line_of_sight=False,
        ),
    )
    ruleset = get_ruleset("pathfinder")
    state = table.state()
    assert (
        state["square_conditions"]
        and state["schedule"]
        and state["engines"][0]["successive"]["unseen_misses"] == 1
    )
    assert ruleset.encode_state(ruleset.decode_state(state)) == state
    assert ruleset.decode_state(state) == table.battle.game  # type: ignore[attr-defined]
