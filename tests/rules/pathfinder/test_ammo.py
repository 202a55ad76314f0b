"""Special ammunition (PF-AMMO-01..11)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    PROFICIENT,
    aimed_engine,
    applied,
    at,
    creature,
    crew,
    effect,
    engine,
    find,
    fire,
    rejected,
    setup,
    skill,
    square,
    who,
)

SKILLED = {"bab": 5, "skills": {"knowledge_engineering": skill(3, 9)}, **PROFICIENT}


def lobbing(rules_table: TableFactory, ammunition: str, *more: dict[str, Any]) -> Table:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("al", **SKILLED),
        creature("c2", x=1),
        aimed_engine("lc", "catapult_light", square(0, 20), ammunition=ammunition),
        crew("lc", "al", "c2"),
        *more,
    )
    return t


@pytest.mark.rule("PF-AMMO-02", "PF-AMMO-11", "PF-CRIT-03")
def test_alchemists_fire_burns_wooden_engines_and_spares_metal_ones(rules_table: TableFactory) -> None:
    t = lobbing(
        rules_table,
        "alchemists_fire",
        engine("wood", "ballista_light", y=20),
        engine("iron", "cannon", x=1, y=20),
        engine("far", "ballista_light", y=26),
    )
    shot = applied(t, fire("lc", {"targeting": [20], "confirm": [15], "damage": [3, 3, 3, 3, 1, 1, 1, 1]}))
    assert (shot["critical_multiplier"], shot["damage"]["total"], shot["damage"]["base"]) == (2, 16, 12)
    assert [
        (e["entity_id"], e["zone"], e["damage_in"], e["hardness_applied"], e["conditions_added"])
        for e in shot["effects"]
    ] == [
        ("wood", "target", 16, 0, ["on_fire"]),
        ("far", "outer", 6, 0, []),
    ]


@pytest.mark.rule("PF-AMMO-04")
def test_liquid_ice_leaves_objects_alone(rules_table: TableFactory) -> None:
    t = lobbing(rules_table, "liquid_ice", engine("cart", "ballista_light", y=20))
    shot = applied(t, fire("lc", {"targeting": [10], "damage": [1] * 4}))
    assert shot["effects"] == []


@pytest.mark.rule("PF-AMMO-01", "PF-AMMO-05")
def test_the_plague_bundle_uses_the_engine_dice_halved(rules_table: TableFactory) -> None:
    t = lobbing(rules_table, "plague_bundle", creature("p", hp=30, y=20), creature("q", hp=30, y=21))
    outcome = t.send(fire("lc", {"targeting": [10], "damage": [3, 3, 3, 2]}))
    assert [r["die"] for r in outcome["rolls"] if r["slot"] == "damage"] == ["d6"] * 4
    shot = outcome["result"]
    assert (shot["damage"]["total"], [e["entity_id"] for e in shot["effects"]]) == (5, ["p"])


@pytest.mark.rule("PF-AMMO-06")
def test_smoke_shot_places_a_fog_cloud_on_the_landing_square(rules_table: TableFactory) -> None:
    outcome = lobbing(rules_table, "smoke_shot").send(fire("lc", {"targeting": [2], "damage": [1, 1]}))
    assert outcome["result"]["square_conditions"] == [{"square": at(0, 20), "condition": "fog_cloud"}]
    assert [c["event"] for c in outcome["changes"]].count("SquareConditionPlaced") == 1


@pytest.mark.rule("PF-AMMO-10", "PF-MISHAP-02")
def test_explode_before_launch_happens_even_on_a_broken_engine(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("al", **SKILLED, hp=30),
        creature("c2", x=1),
        aimed_engine("lc", "catapult_light", square(0, 20), ammunition="bomb", broken=True),
        crew("lc", "al", "c2"),
    )
    shot = applied(t, fire("lc", {"targeting": [1], "damage": [1] * 6}))
    assert (shot["mishap"], shot["explode_before_launch"], shot["damage"]["total"]) == (True, True, 4)
    assert [e["entity_id"] for e in shot["effects"]] == ["al", "c2", "lc"]


@pytest.mark.rule("PF-AMMO-09")
def test_the_entangling_bolt_cannot_target_objects(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("eb", **PROFICIENT),
        aimed_engine("lb", "ballista_light", ammunition="entangling_bolt"),
        crew("lb", "eb"),
        engine("cart", "ram_large", y=3),
        creature("ogre", size="H", y=5),
    )
    assert rejected(t, fire("lb", target={"engine_id": "cart"})) == "target_size_invalid"
    assert applied(t, fire("lb", {"attack": [2]}, target=who("ogre")))["hit"] is False


@pytest.mark.rule("PF-AMMO-07", "PF-MISFIRE-01")
def test_a_blast_shot_with_one_hit_never_misfires(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("cg", bab=4, proficiencies=["firearms"]),
        creature("c2"),
        creature("t1", hp=40, y=2),
        creature("t2", hp=40, y=3),
        aimed_engine("cn", "cannon", who("t1"), ammunition="blast_shot"),
        crew("cn", "cg", "c2"),
    )
    shot = applied(t, fire("cn", {"attack": [1, 15], "damage": [1] * 6}, target_ids=["t1", "t2"]))
    assert (shot["misfire"], shot["hit"], [p["hit"] for p in shot["per_target"]]) == (
        False,
        True,
        [False, True],
    )
    assert [e["entity_id"] for e in shot["effects"]] == ["t2"] and effect(shot, "t2")["hp_after"] == 34


@pytest.mark.rule("PF-AMMO-07")
def test_blast_shot_needs_its_target_list(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("cg", proficiencies=["firearms"]),
        creature("c2"),
        creature("t1", y=2),
        aimed_engine("cn", "cannon", who("t1"), ammunition="blast_shot"),
        crew("cn", "cg", "c2"),
    )
    assert rejected(t, fire("cn")) == "invalid_field"
    assert rejected(t, fire("cn", target_ids=[])) == "invalid_field"
    assert rejected(t, fire("cn", target_ids=["t1", "t1"])) == "invalid_field"


def rows(shot: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (e["entity_id"], e["zone"], e["distance_ft"], e["damage_after_save"], e["conditions_added"])
        for e in shot["effects"]
    ]


@pytest.mark.rule("PF-AMMO-02", "PF-AMMO-11", "PF-GEN-05", "PF-GEN-09")
def test_alchemists_fire_halves_an_odd_damage_down_beyond_five_feet(rules_table: TableFactory) -> None:
    """13 fire: the landing square's creature keeps 13 and burns on a failed save; at 10 ft a failed save
    is floor(13 / 2) = 6, a success 0; a wooden engine at 10 ft takes 6, its hardness ignored."""
    t = lobbing(
        rules_table,
        "alchemists_fire",
        creature("in", hp=30, y=20),
        creature("ring", hp=30, y=22),
        creature("calm", hp=30, x=1, y=22),
        engine("cart", "ballista_light", x=-1, y=22),
    )
    shot = applied(t, fire("lc", {"targeting": [10], "damage": [4, 4, 4, 1], "save": [5, 5, 20]}))
    assert shot["damage"]["total"] == 13
    assert rows(shot) == [
        ("in", "target", 0, 13, ["on_fire"]),
        ("ring", "outer", 10, 6, []),
        ("calm", "outer", 10, 0, []),
        ("cart", "outer", 10, 6, []),
    ]
    assert (effect(shot, "cart")["damage_in"], effect(shot, "cart")["hardness_applied"]) == (6, 0)


@pytest.mark.rule("PF-AMMO-04", "PF-GEN-05")
def test_liquid_ice_halves_an_odd_damage_down_beyond_five_feet(rules_table: TableFactory) -> None:
    t = lobbing(rules_table, "liquid_ice", creature("in", hp=30, y=20), creature("ring", hp=30, y=22))
    shot = applied(t, fire("lc", {"targeting": [10], "damage": [4, 4, 4, 1], "save": [5, 5]}))
    assert rows(shot) == [("in", "target", 0, 13, ["entangled"]), ("ring", "outer", 10, 6, [])]
    assert [e["save"]["type"] for e in shot["effects"]] == ["fort", "fort"]


@pytest.mark.rule("PF-AMMO-03")
def test_a_bomb_strikes_its_landing_square_as_target_and_the_rest_as_area(rules_table: TableFactory) -> None:
    t = lobbing(rules_table, "bomb", creature("in", hp=30, y=20), creature("ring", hp=30, y=22))
    shot = applied(t, fire("lc", {"targeting": [10], "damage": [1] * 6}))
    assert rows(shot) == [("in", "target", 0, 6, []), ("ring", "area", 10, 6, [])]


@pytest.mark.rule("PF-AMMO-05", "PF-AMMO-06")
def test_plague_and_smoke_strike_the_landing_square_s_creatures_at_zero_feet(
    rules_table: TableFactory,
) -> None:
    plague = lobbing(rules_table, "plague_bundle", creature("in", hp=30, y=20), creature("ring", hp=30, y=21))
    shot = applied(plague, fire("lc", {"targeting": [10], "damage": [3, 3, 3, 2]}))
    assert rows(shot) == [("in", "target", 0, 5, ["exposed_filth_fever"])]
    smoke = lobbing(rules_table, "smoke_shot", creature("in", hp=30, y=20), creature("ring", hp=30, y=21))
    shot = applied(smoke, fire("lc", {"targeting": [10], "damage": [3, 4]}))
    assert rows(shot) == [("in", "target", 0, 7, [])]


@pytest.mark.rule("PF-AMMO-02", "PF-GEN-11")
def test_wooden_engines_and_structures_within_five_feet_keep_burning_in_the_state(
    rules_table: TableFactory,
) -> None:
    """Conditions are tags the state records (PF-GEN-11): the wooden engine and the wooden gate within 5 ft
    of the landing square carry `on_fire` afterwards; the iron cannon beside them carries nothing."""
    t = lobbing(
        rules_table,
        "alchemists_fire",
        engine("wood", "ballista_light", y=20),
        engine("iron", "cannon", x=1, y=20),
        {
            "type": "add_structure",
            "id": "gate",
            "kind": "gate",
            "material": "wood",
            "size": "L",
            "position": at(0, 21),
        },
    )
    shot = applied(t, fire("lc", {"targeting": [10], "damage": [1, 1, 1, 1]}))
    assert [(e["entity_id"], e["conditions_added"]) for e in shot["effects"]] == [
        ("wood", ["on_fire"]),
        ("gate", ["on_fire"]),
    ]
    state = t.state()
    assert find(state, "engines", "wood")["conditions"] == ["on_fire"]
    assert find(state, "engines", "iron")["conditions"] == []
    assert find(state, "structures", "gate")["conditions"] == ["on_fire"]


@pytest.mark.rule("PF-AMMO-02", "PF-GEN-09")
def test_a_natural_twenty_saves_and_a_natural_one_fails_whatever_the_total(rules_table: TableFactory) -> None:
    """Reflex DC 20 at 10 ft: `low` (ref −2) rolls a natural 20, total 18, and takes nothing; `high`
    (ref +19) rolls a natural 1, total 20, and takes half of 13."""
    t = lobbing(
        rules_table,
        "alchemists_fire",
        creature("low", hp=30, y=22, saves={"ref": -2}),
        creature("high", hp=30, x=1, y=22, saves={"ref": 19}),
    )
    shot = applied(t, fire("lc", {"targeting": [10], "damage": [4, 4, 4, 1], "save": [20, 1]}))
    assert [
        (
            e["entity_id"],
            e["save"]["natural"],
            e["save"]["total"],
            e["save"]["success"],
            e["damage_after_save"],
        )
        for e in shot["effects"]
    ] == [("low", 20, 18, True, 0), ("high", 1, 20, False, 6)]
