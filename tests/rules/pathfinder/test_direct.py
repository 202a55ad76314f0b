"""Direct fire (PF-DIRECT-01..05, PF-GEN-07/08/12, PF-MAGIC-05, PF-TIME-05) and `fire`'s refusals."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    PROFICIENT,
    aimed_engine,
    applied,
    creature,
    crew,
    effect,
    engine,
    fire,
    labels,
    rejected,
    setup,
    skill,
    who,
)

KNOWS = {"skills": {"knowledge_engineering": skill(1, 1)}}


def ballista(
    rules_table: TableFactory,
    leader: dict[str, Any] | None = None,
    target: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    fields: dict[str, Any] | None = None,
    **state: Any,
) -> Table:
    """A loaded light ballista (aim 0) at (0,0) crewed by `lead`, and a dummy (ac 10, hp 30) 20 ft north."""
    t = rules_table("pathfinder", options)
    setup(
        t,
        creature("lead", **(leader if leader is not None else {**PROFICIENT, **KNOWS})),
        target or creature("dummy", hp=30, y=4),
        aimed_engine("lb", "ballista_light", **state) | (fields or {}),
        crew("lb", "lead"),
    )
    return t


def shoot(t: Table, dice: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return applied(t, fire("lb", dice, target=fields.pop("target", who("dummy")), **fields))


@pytest.mark.rule("PF-DIRECT-01", "PF-DIRECT-03", "PF-DIRECT-05", "PF-GEN-10")
def test_a_hit_deals_the_engine_dice_to_the_target_only(rules_table: TableFactory) -> None:
    t = ballista(rules_table, {"bab": 3, "dex_mod": 2, **PROFICIENT, **KNOWS})
    shot = shoot(t, {"attack": [5], "damage": [1, 2, 3]})
    assert labels(shot["roll"]) == {"bab": 3, "dex": 2}
    assert (shot["roll"]["total"], shot["roll"]["target_number"], shot["roll"]["success"]) == (10, 10, True)
    assert shot["damage"] == {"dice": [1, 2, 3], "static": 0, "total": 6, "base": 6}
    assert [(e["entity_id"], e["zone"], e["distance_ft"], e["hp_after"]) for e in shot["effects"]] == [
        ("dummy", "target", 20, 24),
    ]
    assert (shot["landing"], shot["per_target"], shot["collapse"], shot["square_conditions"]) == (
        None,
        None,
        [],
        [],
    )


@pytest.mark.rule("PF-DIRECT-03")
def test_a_miss_has_no_further_effect(rules_table: TableFactory) -> None:
    outcome = ballista(rules_table).send(fire("lb", {"attack": [8]}, target=who("dummy")))
    assert outcome["result"]["hit"] is False and outcome["result"]["effects"] == []
    assert [r["slot"] for r in outcome["rolls"]] == ["attack"]


@pytest.mark.rule("PF-GEN-07")
def test_natural_twenty_always_hits_and_natural_one_always_misses(rules_table: TableFactory) -> None:
    t = ballista(rules_table, target=creature("dummy", ac=40, hp=30, y=4))
    assert shoot(t, {"attack": [20], "confirm": [3], "damage": [1, 1, 1]})["hit"] is True
    low = ballista(
        rules_table,
        {
            "bab": 20,
            **PROFICIENT,
            **KNOWS,
            "feats": ["siege_engineer"],
            "skills": {"knowledge_engineering": skill(5, 5)},
        },
    )
    assert shoot(low, {"attack": [1]})["hit"] is False


@pytest.mark.rule("PF-GEN-08")
def test_a_nonproficient_leader_takes_minus_four(rules_table: TableFactory) -> None:
    shot = shoot(ballista(rules_table, KNOWS), {"attack": [10]})
    assert labels(shot["roll"]) == {"nonproficient": -4}
    firearms = shoot(ballista(rules_table, {"proficiencies": ["firearms"], **KNOWS}), {"attack": [10]})
    assert labels(firearms["roll"]) == {"nonproficient": -4}
    own = shoot(ballista(rules_table, {"proficiencies": ["ballista_light"], **KNOWS}), {"attack": [10]})
    assert labels(own["roll"]) == {}


@pytest.mark.rule("PF-DIRECT-02")
def test_the_targeting_platform_only_counts_under_its_option(rules_table: TableFactory) -> None:
    platform = {"targeting_platform": True}
    plain = shoot(ballista(rules_table, PROFICIENT, fields=platform), {"attack": [10]})
    assert labels(plain["roll"]) == {"siege_size_penalty": -2}
    opted = shoot(ballista(rules_table, PROFICIENT, options=platform, fields=platform), {"attack": [10]})
    assert labels(opted["roll"]) == {}


@pytest.mark.rule("PF-GEN-12")
def test_wind_modifies_the_attack_and_a_tornado_stops_all_fire(rules_table: TableFactory) -> None:
    t = ballista(rules_table)
    applied(t, {"type": "set_wind", "level": "hurricane"})
    assert labels(shoot(t, {"attack": [10]})["roll"]) == {"wind": -8}
    calm = ballista(rules_table)
    applied(calm, {"type": "set_wind", "level": "tornado"})
    assert rejected(calm, fire("lb", target=who("dummy"))) == "cannot_fire_in_tornado"


@pytest.mark.rule("PF-MAGIC-05", "PF-MAGIC-03")
def test_a_siege_mage_empowers_attack_and_damage(rules_table: TableFactory) -> None:
    mage = {**PROFICIENT, **KNOWS, "features": ["siege_mage"]}
    t = ballista(rules_table, mage, fields={"masterwork": True, "enhancement": 1})
    shot = shoot(t, {"attack": [7], "damage": [1, 1, 1]}, empower_spell_level=2)
    assert labels(shot["roll"]) == {"enhancement": 1, "empower": 2}
    assert (shot["damage"]["static"], shot["damage"]["total"]) == (7, 10)
    assert (
        rejected(ballista(rules_table), fire("lb", target=who("dummy"), empower_spell_level=1))
        == "not_a_siege_mage"
    )


@pytest.mark.rule("PF-DEF-05", "PF-GEN-10")
def test_a_broken_engine_takes_minus_two_and_damage_never_drops_below_one(rules_table: TableFactory) -> None:
    shot = shoot(ballista(rules_table, broken=True), {"attack": [12], "damage": [1, 1, 1]})
    assert labels(shot["roll"]) == {"broken": -2}
    assert (shot["damage"]["static"], shot["damage"]["total"]) == (-2, 1)


@pytest.mark.rule("PF-DIRECT-04")
def test_cover_inside_a_siege_tower(rules_table: TableFactory) -> None:
    tower = engine("st", "siege_tower_large", y=4)
    riders = (
        creature("up", y=4, inside={"engine_id": "st", "level": "upper"}),
        creature("down", y=4, inside={"engine_id": "st", "level": "lower"}),
    )
    t = ballista(rules_table, target=tower)
    setup(t, *riders)
    assert rejected(t, fire("lb", target=who("down"))) == "target_has_total_cover"
    assert shoot(t, {"attack": [10]}, target=who("up"))["roll"]["target_number"] == 18


@pytest.mark.rule("PF-DIRECT-04")
def test_a_creature_larger_than_the_gallery_has_no_cover(rules_table: TableFactory) -> None:
    t = ballista(rules_table, target=engine("gal", "gallery_large", y=4))
    setup(t, creature("huge", size="H", y=4, inside={"engine_id": "gal"}))
    assert shoot(t, {"attack": [10]}, target=who("huge"))["roll"]["target_number"] == 10


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


@pytest.mark.rule("PF-DIRECT-05", "PF-DEF-06", "PF-GEN-10")
def test_engines_subtract_hardness_and_are_destroyed_at_zero(rules_table: TableFactory) -> None:
    t = ballista(rules_table, target=engine("cat", "catapult_light", y=4, state={"hp": 8}))
    setup(t, creature("loader", x=5), crew("cat", "loader"))
    shot = shoot(t, {"attack": [10], "damage": [8, 8, 8]}, target={"engine_id": "cat"})
    hit = effect(shot, "cat")
    assert (hit["hardness_applied"], hit["hp_loss"], hit["hp_after"], hit["conditions_added"]) == (
        5,
        19,
        -11,
        ["destroyed"],
    )
    applied(t, crew("lb", "loader"))  # the wreck released its crew
