"""`fire` (§3.13, PF-TIME-05, PF-ASSAULT-10): its refusals in the spec's order, one shot a round."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.rules.pathfinder.given import (
    PROFICIENT,
    aimed_engine,
    ballista,
    creature,
    crew,
    engine,
    fire,
    rejected,
    setup,
    shoot,
    who,
)

rule = pytest.mark.rule


@pytest.mark.rule("PF-TIME-05")
def test_an_engine_fires_once_per_round(rules_table: TableFactory) -> None:
    t = ballista(rules_table)
    shoot(t, {"attack": [2]})
    assert rejected(t, fire("lb", target=who("dummy"))) == "action_unavailable"


@pytest.mark.rule("PF-LOAD-01", "PF-AIM-03", "PF-DEF-06")
def test_fire_refusals_in_the_spec_order(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT),
        creature("dummy", y=4),
        engine("lb", "ballista_light"),
        crew("lb", "lead"),
        engine("hb", "ballista_heavy", state={"loaded": True}),
        engine("wreck", "ram_large", y=2, state={"hp": 0}),
    )
    assert rejected(t, fire("lb", target=who("dummy"))) == "not_loaded"
    assert rejected(t, fire("hb", target=who("dummy"))) == "invalid_field"
    assert rejected(t, fire("hb")) == "no_crew"
    loaded = rules_table("pathfinder")
    setup(
        loaded,
        creature("lead", **PROFICIENT),
        aimed_engine("lb", "ballista_light"),
        crew("lb", "lead"),
        engine("wreck", "ram_large", y=2, state={"hp": 0}),
    )
    assert rejected(loaded, fire("lb", target={"square": {"x": 0, "y": 3}})) == "target_kind_invalid"
    assert rejected(loaded, fire("lb", target={"engine_id": "wreck"})) == "target_destroyed"
    assert rejected(loaded, fire("lb", target={"engine_id": "ghost"})) == "unknown_entity"


@rule("PF-ASSAULT-10", "PF-DIRECT-04")
def test_a_shot_at_the_lower_storey_is_refused_too(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        engine("st", "siege_tower_large", y=4),
        creature("low", y=4, inside={"engine_id": "st", "level": "lower"}),
        aimed_engine("lb", "ballista_light"),
        creature("aimer", **PROFICIENT),
        crew("lb", "aimer"),
    )
    assert rejected(t, fire("lb", {"attack": [10]}, target=who("low"))) == "target_has_total_cover"
