"""Damage to objects (PF-GEN-10, PF-DEF-05/06, PF-STRUCT-05/06, PF-ENGINE-06, PF-ASSAULT-10)."""

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
    setup,
    skill,
    square,
    who,
)

SKILLED = {"bab": 5, "skills": {"knowledge_engineering": skill(1, 1)}, **PROFICIENT}


def wall(sid: str, y: int, **fields: Any) -> dict[str, Any]:
    return {
        "type": "add_structure",
        "id": sid,
        "kind": "wall",
        "material": "iron",
        "position": at(0, y),
        **fields,
    }


def ballista_at(rules_table: TableFactory, target: dict[str, Any], *more: dict[str, Any]) -> Table:
    t = rules_table("pathfinder")
    setup(t, creature("lead", **SKILLED), *more, aimed_engine("lb", "ballista_light"), crew("lb", "lead"))
    return t


@pytest.mark.rule("PF-GEN-10", "PF-STRUCT-05")
def test_damage_below_hardness_does_nothing(rules_table: TableFactory) -> None:
    t = ballista_at(rules_table, {}, wall("w", 4))
    shot = applied(t, fire("lb", {"attack": [15], "damage": [1, 1, 1]}, target={"structure_id": "w"}))
    assert (effect(shot, "w")["hardness_applied"], effect(shot, "w")["hp_loss"]) == (10, 0)


@pytest.mark.rule("PF-STRUCT-05", "PF-STRUCT-06")
def test_a_collapsing_chain_stops_at_a_square_that_survives(rules_table: TableFactory) -> None:
    t = ballista_at(
        rules_table,
        {},
        wall("a", 4, state={"hp": 1}),
        wall("b", 4, stacked_on="a", state={"hp": 3}),
        wall("c", 4, stacked_on="b", state={"hp": 4}),
        wall("d", 4, stacked_on="c"),
    )
    shot = applied(t, fire("lb", {"attack": [15], "damage": [8, 8, 8]}, target={"structure_id": "a"}))
    assert [(f["structure_id"], f["hp_before"], f["hp_after"], f["destroyed"]) for f in shot["collapse"]] == [
        ("b", 3, 0, True),
        ("c", 4, 1, False),
    ]
    setup(t, creature("second", **SKILLED), aimed_engine("lb2", "ballista_light"), crew("lb2", "second"))
    again = applied(t, fire("lb2", {"attack": [15], "damage": [8, 8, 8]}, target={"structure_id": "c"}))
    assert [(f["structure_id"], f["hp_after"]) for f in again["collapse"]] == [("d", 44)]


@pytest.mark.rule("PF-DEF-05", "PF-GEN-10")
def test_an_engine_at_half_hp_is_reported_broken(rules_table: TableFactory) -> None:
    t = ballista_at(rules_table, {}, engine("cart", "ballista_heavy", y=4))
    shot = applied(t, fire("lb", {"attack": [15], "damage": [8, 8, 8]}, target={"engine_id": "cart"}))
    cart = effect(shot, "cart")
    assert (cart["hp_after"], cart["conditions_added"]) == (81, [])
    applied(t, {"type": "advance_round"})
    for _ in range(2):
        applied(
            t, {"type": "load", "engine_id": "lb", "contributors": [{"creature_id": "lead", "actions": 1}]}
        )
        applied(t, {"type": "advance_round"})
    shot = applied(t, fire("lb", {"attack": [15], "damage": [8, 8, 8]}, target={"engine_id": "cart"}))
    assert (effect(shot, "cart")["hp_after"], effect(shot, "cart")["conditions_added"]) == (62, [])


@pytest.mark.rule("PF-GEN-10")
def test_a_creature_brought_to_zero_goes_down(rules_table: TableFactory) -> None:
    t = ballista_at(rules_table, {}, creature("weak", hp=3, y=4))
    shot = applied(t, fire("lb", {"attack": [15], "damage": [1, 1, 1]}, target={"creature_id": "weak"}))
    assert (effect(shot, "weak")["hp_after"], effect(shot, "weak")["conditions_added"]) == (0, ["down"])


@pytest.mark.rule("PF-ENGINE-06", "PF-STRUCT-05")
def test_trebuchet_splash_hits_objects_for_half_the_base_without_save(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("tl", bab=10, **PROFICIENT),
        creature("t2"),
        creature("t3"),
        aimed_engine("tb", "trebuchet_heavy", square(0, 80), assembled=True),
        crew("tb", "tl", "t2", "t3"),
        {
            "type": "add_structure",
            "id": "gate",
            "kind": "gate",
            "material": "wood",
            "size": "L",
            "position": at(0, 86),
        },
        {
            "type": "add_structure",
            "id": "hut",
            "kind": "building",
            "material": "wood",
            "size": "L",
            "position": at(0, 80),
            "state": {"hp": 10},
        },
    )
    shot = applied(t, fire("tb", {"targeting": [15], "damage": [6] * 8}))
    hut, gate = effect(shot, "hut"), effect(shot, "gate")
    assert (hut["zone"], hut["damage_in"], hut["hardness_applied"], hut["cave_in"]) == ("target", 48, 2, True)
    assert (gate["zone"], gate["damage_in"], gate["save"], gate["hp_after"]) == ("splash", 24, None, 41)


def broken_ballista(rules_table: TableFactory) -> Table:
    """A broken light ballista (3d8, 19-20/×2, −2 damage: PF-DEF-05); a dummy (ac 10, hp 40) 20 ft north."""
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **SKILLED),
        creature("dummy", hp=40, y=4),
        aimed_engine("lb", "ballista_light", broken=True),
        crew("lb", "lead"),
    )
    return t


@pytest.mark.rule("PF-CRIT-03", "PF-GEN-10", "PF-DEF-05")
def test_a_critical_rolls_the_dice_twice_and_counts_the_static_modifiers_twice(
    rules_table: TableFactory,
) -> None:
    """Six dice from one draw, −2 twice in the total, once in the base (the first three dice)."""
    t = broken_ballista(rules_table)
    dice = {"attack": [19], "confirm": [15], "damage": [8, 7, 6, 1, 2, 3]}
    shot = applied(t, fire("lb", dice, target=who("dummy")))
    assert shot["damage"] == {"dice": [8, 7, 6, 1, 2, 3], "static": -2, "total": 23, "base": 19}
    assert (effect(shot, "dummy")["damage_in"], effect(shot, "dummy")["hp_after"]) == (23, 17)


@pytest.mark.rule("PF-CRIT-03", "PF-GEN-10", "PF-DEF-05")
def test_a_critical_total_and_base_each_become_at_least_one(rules_table: TableFactory) -> None:
    t = broken_ballista(rules_table)
    shot = applied(t, fire("lb", {"attack": [20], "confirm": [15], "damage": [1] * 6}, target=who("dummy")))
    # total 6 − 2 × 2 = 2; base 3 − 2 = 1
    assert shot["damage"] == {"dice": [1] * 6, "static": -2, "total": 2, "base": 1}


@pytest.mark.rule("PF-GEN-10", "PF-DEF-05")
def test_a_total_of_exactly_one_deals_one_and_so_does_its_base(rules_table: TableFactory) -> None:
    t = broken_ballista(rules_table)
    plain = applied(t, fire("lb", {"attack": [15], "damage": [1, 1, 1]}, target=who("dummy")))
    assert plain["damage"] == {"dice": [1, 1, 1], "static": -2, "total": 1, "base": 1}
    assert effect(plain, "dummy")["hp_after"] == 39


@pytest.mark.rule("PF-GEN-10")
def test_a_creature_left_at_one_hp_stays_up_and_one_already_down_is_not_downed_again(
    rules_table: TableFactory,
) -> None:
    t = ballista_at(rules_table, {}, creature("weak", hp=4, y=4), creature("out", hp=-2, y=8))
    shot = applied(t, fire("lb", {"attack": [15], "damage": [1, 1, 1]}, target=who("weak")))
    assert (effect(shot, "weak")["hp_loss"], effect(shot, "weak")["hp_after"]) == (3, 1)
    assert effect(shot, "weak")["conditions_added"] == []
    setup(t, creature("second", **SKILLED), aimed_engine("lb2", "ballista_light"), crew("lb2", "second"))
    again = applied(t, fire("lb2", {"attack": [15], "damage": [1, 1, 1]}, target=who("out")))
    assert (effect(again, "out")["hp_after"], effect(again, "out")["conditions_added"]) == (-5, [])
    assert find(t.state(), "creatures", "out")["conditions"] == ["down"]


def heavy_target(rules_table: TableFactory, hp: int, **state: Any) -> Table:
    """A heavy ballista (hardness 5, 100 hp) with `hp` left, 20 ft north of a crewed light ballista."""
    return ballista_at(rules_table, {}, engine("cart", "ballista_heavy", y=4, state={"hp": hp, **state}))


@pytest.mark.rule("PF-DEF-05", "PF-DEF-06", "PF-GEN-10")
@pytest.mark.parametrize(
    ("hp", "damage", "hp_after", "added"),
    [
        (61, [5, 5, 5], 51, []),  # 15 − hardness 5: 51 × 2 > 100
        (60, [5, 5, 5], 50, ["broken"]),  # 50 × 2 ≤ 100
        (11, [5, 5, 5], 1, []),  # broken from the start (11 × 2 ≤ 100): not reported again
        (10, [5, 5, 5], 0, ["destroyed"]),
        (3, [1, 1, 1], 3, []),  # 3 damage against hardness 5: nothing
    ],
)
def test_an_engine_is_broken_at_half_hp_and_destroyed_at_zero(
    rules_table: TableFactory, hp: int, damage: list[int], hp_after: int, added: list[str]
) -> None:
    t = heavy_target(rules_table, hp)
    shot = applied(t, fire("lb", {"attack": [15], "damage": damage}, target={"engine_id": "cart"}))
    cart = effect(shot, "cart")
    assert (cart["hardness_applied"], cart["hp_before"], cart["hp_after"], cart["conditions_added"]) == (
        5,
        hp,
        hp_after,
        added,
    )
    assert cart["cave_in"] is False
    state = find(t.state(), "engines", "cart")
    assert (state["hp"], state["destroyed"]) == (hp_after, hp_after <= 0)
    assert "broken" not in state["conditions"]  # broken is a state, not a condition


@pytest.mark.rule("PF-DEF-05")
def test_an_engine_broken_by_a_mishap_is_not_reported_broken_again(rules_table: TableFactory) -> None:
    t = heavy_target(rules_table, 100, broken=True)
    shot = applied(t, fire("lb", {"attack": [15], "damage": [8, 8, 8]}, target={"engine_id": "cart"}))
    assert (effect(shot, "cart")["hp_after"], effect(shot, "cart")["conditions_added"]) == (81, [])
    t2 = heavy_target(rules_table, 60, broken=True)
    shot = applied(t2, fire("lb", {"attack": [15], "damage": [5, 5, 5]}, target={"engine_id": "cart"}))
    assert (effect(shot, "cart")["hp_after"], effect(shot, "cart")["conditions_added"]) == (50, [])


@pytest.mark.rule("PF-STRUCT-05", "PF-GEN-10")
@pytest.mark.parametrize(
    ("kind", "hp", "damage", "hardness", "hp_after", "added", "status"),
    [
        # an iron wall square (hardness 10, 90 hp): broken at 45, its hardness then 5; never breached until 0
        ("wall", 47, [4, 4, 4], 10, 45, ["broken"], (True, False, False)),
        ("wall", 48, [4, 4, 4], 10, 46, [], (False, False, False)),
        ("wall", 45, [4, 4, 4], 5, 38, [], (True, False, False)),
        ("wall", 9, [5, 4, 4], 5, 1, [], (True, False, False)),
        ("wall", 8, [5, 4, 4], 5, 0, ["breached", "destroyed"], (True, True, True)),
        # a Large wood gate (hardness 5, 60 hp): broken and breached at 30
        ("gate", 31, [2, 2, 2], 5, 30, ["broken", "breached"], (True, True, False)),
        ("gate", 31, [2, 2, 1], 5, 31, [], (False, False, False)),
        ("gate", 30, [4, 4, 4], 2, 20, [], (True, True, False)),
    ],
)
def test_a_structure_hit_is_broken_at_half_hp_breached_and_destroyed(
    rules_table: TableFactory,
    kind: str,
    hp: int,
    damage: list[int],
    hardness: int,
    hp_after: int,
    added: list[str],
    status: tuple[bool, bool, bool],
) -> None:
    target = (
        wall("s", 4, state={"hp": hp})
        if kind == "wall"
        else {"type": "add_structure", "id": "s", "kind": "gate", "material": "wood", "size": "L"}
        | {"position": at(0, 4), "state": {"hp": hp}}
    )
    t = ballista_at(rules_table, {}, target)
    shot = applied(t, fire("lb", {"attack": [15], "damage": damage}, target={"structure_id": "s"}))
    hit = effect(shot, "s")
    assert (hit["hardness_applied"], hit["hp_after"], hit["conditions_added"], hit["cave_in"]) == (
        hardness,
        hp_after,
        added,
        False,
    )
    state = find(t.state(), "structures", "s")
    assert (state["hp"], (state["broken"], state["breached"], state["destroyed"])) == (hp_after, status)
    assert state["conditions"] == []


@pytest.mark.rule("PF-STRUCT-05")
def test_a_broken_building_brought_to_zero_caves_in(rules_table: TableFactory) -> None:
    """A Large wood building (hardness 5, 120 hp) at 10 hp, already broken and breached, caves in at 0."""
    hut = {"type": "add_structure", "id": "hut", "kind": "building", "material": "wood", "size": "L"}
    t = ballista_at(rules_table, {}, hut | {"position": at(0, 4), "state": {"hp": 10}})
    shot = applied(t, fire("lb", {"attack": [15], "damage": [4, 4, 4]}, target={"structure_id": "hut"}))
    hit = effect(shot, "hut")
    assert (hit["hardness_applied"], hit["hp_after"], hit["conditions_added"], hit["cave_in"]) == (
        2,
        0,
        ["destroyed"],
        True,
    )
    state = find(t.state(), "structures", "hut")
    assert (state["broken"], state["breached"], state["destroyed"], state["conditions"]) == (
        True,
        True,
        True,
        ["cave_in"],
    )


@pytest.mark.rule("PF-AMMO-02", "PF-AMMO-11", "PF-GEN-10")
def test_a_burning_object_keeps_the_condition_and_it_is_not_added_twice(rules_table: TableFactory) -> None:
    """Alchemist's fire sets wooden objects within 5 ft on fire (ignoring their hardness): the engine and the
    gate keep `on_fire` in the state (the stored outcome's changes say whose), and a second flask reports it
    for neither."""
    t = rules_table("pathfinder")
    lobber = {"bab": 5, "skills": {"knowledge_engineering": skill(3, 9)}, **PROFICIENT}
    setup(
        t,
        creature("al", **lobber),
        creature("c2", x=1),
        creature("bl", **lobber),
        creature("c3", x=2),
        aimed_engine("lc", "catapult_light", square(0, 20), ammunition="alchemists_fire"),
        crew("lc", "al", "c2"),
        aimed_engine("lc2", "catapult_light", square(0, 20), x=3, ammunition="alchemists_fire"),
        crew("lc2", "bl", "c3"),
        engine("cart", "ballista_light", y=20),
        {
            "type": "add_structure",
            "id": "gate",
            "kind": "gate",
            "material": "wood",
            "size": "L",
            "position": at(1, 20),
        },
    )
    outcome = t.send(fire("lc", {"targeting": [20], "confirm": [1], "damage": [2, 2, 2, 2]}))
    first = outcome["result"]
    assert [c for c in outcome["changes"] if c["event"] == "ConditionsAdded"] == [
        {"event": "ConditionsAdded", "entity_kind": "engine", "entity_id": "cart", "conditions": ["on_fire"]},
        {
            "event": "ConditionsAdded",
            "entity_kind": "structure",
            "entity_id": "gate",
            "conditions": ["on_fire"],
        },
    ]
    assert [(e["entity_id"], e["hardness_applied"], e["conditions_added"]) for e in first["effects"]] == [
        ("cart", 0, ["on_fire"]),
        ("gate", 0, ["on_fire"]),
    ]
    state = t.state()
    assert find(state, "engines", "cart")["conditions"] == ["on_fire"]
    assert find(state, "structures", "gate")["conditions"] == ["on_fire"]
    second = applied(t, fire("lc2", {"targeting": [20], "confirm": [1], "damage": [2, 2, 2, 2]}))
    assert [(e["entity_id"], e["conditions_added"]) for e in second["effects"]] == [
        ("cart", []),
        ("gate", []),
    ]
    assert find(t.state(), "engines", "cart")["conditions"] == ["on_fire"]
