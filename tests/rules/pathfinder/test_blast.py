"""Cannon blast shot (PF-AMMO-07): one attack per listed target with its own critical and damage; objects
keep their hardness; cover counts; it misfires only when every attack misses and one natural lies in the
misfire range, widened while broken (PF-MISFIRE-02), and a broken cannon then explodes (PF-MISFIRE-03)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    aimed_engine,
    applied,
    at,
    creature,
    crew,
    engine,
    find,
    fire,
    setup,
    who,
)

# the gunner's attack is d20 + bab 4: a Large cannon, a Medium leader and one Medium helper, no size penalty
GUNNER: dict[str, Any] = {"bab": 4, "proficiencies": ["firearms"]}


def cannon(rules_table: TableFactory, *more: dict[str, Any], **state: Any) -> Table:
    """`cn` at (0,0) loaded with blast shot, crewed by cg and c2; t1 (ac 14, touch 10) 10 ft and t2 (ac 18)
    20 ft away, 40 hp each."""
    t = rules_table("pathfinder")
    setup(
        t,
        creature("cg", **GUNNER),
        creature("c2", x=1),
        creature("t1", ac=14, touch_ac=10, hp=40, y=2),
        creature("t2", ac=18, hp=40, x=1, y=4),
        *more,
        aimed_engine("cn", "cannon", who("t1"), ammunition="blast_shot", **state),
        crew("cn", "cg", "c2"),
    )
    return t


def blast(t: Table, dice: dict[str, Any], *target_ids: str) -> dict[str, Any]:
    return applied(t, fire("cn", dice, target_ids=list(target_ids)))


@pytest.mark.rule("PF-AMMO-07", "PF-CRIT-01", "PF-CRIT-03")
def test_each_hit_has_its_own_critical_and_its_own_damage_draw(rules_table: TableFactory) -> None:
    """The cannon is ×4 on a 20: t1 (natural 20, confirm 10 + 4 = 14 ≥ 14) takes 4 × 6d6 from one draw;
    t2 (15 + 4 = 19 ≥ 18) takes a plain 6d6, drawn after t1's."""
    t = cannon(rules_table)
    shot = blast(t, {"attack": [20, 15], "confirm": [10], "damage": [1] * 24 + [2] * 6}, "t1", "t2")
    first, second = shot["per_target"]
    assert (first["threat"], first["critical_multiplier"], first["hit"]) == (True, 4, True)
    assert first["confirm"] == {
        "slot": "confirm",
        "natural": 10,
        "modifiers": [{"label": "bab", "value": 4}],
        "total": 14,
        "target_number": 14,
        "success": True,
    }
    assert first["damage"] == {"dice": [1] * 24, "static": 0, "total": 24, "base": 6}
    assert (second["threat"], second["confirm"], second["critical_multiplier"]) == (False, None, 1)
    assert second["damage"] == {"dice": [2] * 6, "static": 0, "total": 12, "base": 12}
    assert [(e["entity_id"], e["hp_after"]) for e in shot["effects"]] == [("t1", 16), ("t2", 28)]
    assert [e["entity_id"] for e in first["effects"]] == ["t1"]
    assert [find(t.state(), "creatures", c)["hp"] for c in ("t1", "t2")] == [16, 28]


@pytest.mark.rule("PF-AMMO-07", "PF-CRIT-01")
def test_an_unconfirmed_threat_deals_the_dice_once(rules_table: TableFactory) -> None:
    shot = blast(cannon(rules_table), {"attack": [20], "confirm": [9], "damage": [3] * 6}, "t1")
    (only,) = shot["per_target"]
    assert (only["threat"], only["confirm"]["total"], only["confirm"]["success"]) == (True, 13, False)
    assert (only["critical_multiplier"], only["damage"]["total"], shot["effects"][0]["hp_after"]) == (
        1,
        18,
        22,
    )


@pytest.mark.rule("PF-AMMO-07", "PF-DIRECT-03", "PF-DIRECT-04", "PF-DIRECT-05", "PF-DEF-01")
def test_objects_keep_their_hardness_and_creatures_their_cover_and_full_ac(rules_table: TableFactory) -> None:
    """A Large ram (AC 4, hardness 5, 30 hp), a Medium creature inside a Large gallery (improved cover,
    +8) and t1, whose AC 14 counts, not its touch AC 10."""
    yard = (
        engine("rm", "ram_large", x=2, y=2),
        engine("gal", "gallery_large", x=-1, y=3),
        creature("hid", x=-1, y=3, inside={"engine_id": "gal"}),
    )
    shot = blast(cannon(rules_table, *yard), {"attack": [1, 9, 8]}, "rm", "hid", "t1")
    assert [
        (p["target_id"], p["roll"]["total"], p["roll"]["target_number"], p["hit"]) for p in shot["per_target"]
    ] == [
        ("rm", 5, 4, False),  # a natural 1 misses whatever the total (PF-DIRECT-03)
        ("hid", 13, 18, False),
        ("t1", 12, 14, False),
    ]
    assert (shot["hit"], shot["misfire"]) == (False, True)  # every attack missed, a natural 1 among them
    # totals equal to the ACs hit: 14 + 4 = 18 against the covered 18, 10 + 4 = 14 against 14
    again = cannon(rules_table, *yard)
    hits = blast(again, {"attack": [2, 14, 10], "damage": [1] * 6 + [2] * 6 + [3] * 6}, "rm", "hid", "t1")
    assert [p["hit"] for p in hits["per_target"]] == [True, True, True]
    assert [
        (e["entity_kind"], e["entity_id"], e["hardness_applied"], e["hp_loss"], e["hp_after"])
        for e in hits["effects"]
    ] == [("engine", "rm", 5, 1, 29), ("creature", "hid", 0, 12, -2), ("creature", "t1", 0, 18, 22)]


@pytest.mark.rule("PF-AMMO-07", "PF-MISFIRE-02", "PF-MISFIRE-03", "PF-DEF-05")
def test_a_broken_cannon_whose_attacks_all_miss_explodes_on_a_natural_up_to_five(
    rules_table: TableFactory,
) -> None:
    """Broken: −2 on every attack and misfire range 1 + 4 = 5. A 5 among the missing naturals explodes it
    (6d6, no static modifier, Reflex DC 20 for half, every creature within 20 ft in creation order)."""
    boom = blast(
        cannon(rules_table, broken=True),
        {"attack": [5, 9], "explosion_damage": [2] * 6, "explosion_reflex": [20, 1, 10, 9]},
        "t1",
        "t2",
    )
    assert [(p["roll"]["total"], p["hit"]) for p in boom["per_target"]] == [(7, False), (11, False)]
    assert (boom["hit"], boom["misfire"], boom["exploded"]) == (False, True, True)
    assert boom["damage"] == {"dice": [2] * 6, "static": 0, "total": 12, "base": 12}
    assert [(e["entity_id"], e["distance_ft"], e["damage_after_save"]) for e in boom["effects"]] == [
        ("cg", 0, 6),
        ("c2", 5, 12),
        ("t1", 10, 12),
        ("t2", 20, 12),
    ]
    assert boom["engine_after"]["destroyed"] is True
    spared = blast(cannon(rules_table, broken=True), {"attack": [6, 9]}, "t1", "t2")
    assert (spared["hit"], spared["misfire"], spared["exploded"], spared["effects"]) == (
        False,
        False,
        False,
        [],
    )
    assert (spared["engine_after"]["broken"], spared["engine_after"]["misfire_max"]) == (True, 5)


@pytest.mark.rule("PF-AMMO-07", "PF-STRUCT-05", "PF-STRUCT-06")
def test_a_wall_square_the_blast_destroys_lets_the_one_above_fall(rules_table: TableFactory) -> None:
    """An iron square at 1 hp is broken (hardness 10 halved to 5): 12 − 5 destroys it, and the square on it
    falls into the gap at floor(3 / 2) − 1 = 0 hp, destroyed too."""

    def wall(sid: str, **fields: Any) -> dict[str, Any]:
        return {
            "type": "add_structure",
            "id": sid,
            "kind": "wall",
            "material": "iron",
            "position": at(0, 2),
            **fields,
        }

    t = cannon(rules_table, wall("low", state={"hp": 1}), wall("high", stacked_on="low", state={"hp": 3}))
    shot = blast(t, {"attack": [15], "damage": [2] * 6}, "low")
    low = shot["effects"][0]
    assert (low["hardness_applied"], low["hp_after"], low["conditions_added"]) == (
        5,
        -6,
        ["breached", "destroyed"],
    )
    assert [(s["id"], s["hp"], s["destroyed"]) for s in t.state()["structures"]] == [
        ("low", -6, True),
        ("high", 0, True),
    ]
