"""The battle state (PF-GEN-02, PF-GEN-06): options fixed at creation, exact JSON round trips."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.rules.pathfinder.given import applied, creature, engine


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
