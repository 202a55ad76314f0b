"""Dislodging a corvus (§3.22, PF-ASSAULT-07): Strength or driving, the occupants' saves."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.rules.pathfinder.given import (
    advance,
    applied,
    creature,
    deck,
    deployed,
    dislodge,
    engine,
    find,
    labels,
    rejected,
    setup,
    use,
)

rule = pytest.mark.rule


@rule("PF-ASSAULT-07")
def test_a_strength_check_short_of_the_dc_leaves_the_corvus(rules_table: TableFactory) -> None:
    t = deployed(rules_table)
    result = applied(t, dislodge("def1", "strength", {"check": [20]}))
    assert result == {
        "dc": 30,
        "check": {
            "slot": "check",
            "natural": 20,
            "modifiers": [{"label": "str", "value": 4}],
            "total": 24,
            "target_number": 30,
            "success": False,
        },
        "success": False,
        "margin": -6,
        "corvus_destroyed": False,
        "occupants": [],
        "round": 1,
        "unused_dice": [],
    }
    assert find(t.state(), "creatures", "def1")["actions"] == {"standard": False, "move": False}
    assert find(t.state(), "engines", "cv")["corvus"]["deployed"] is True


@rule("PF-ASSAULT-07", "PF-GEN-09", "PF-GEN-11")
def test_a_driving_check_at_the_dc_dislodges_and_occupants_save(rules_table: TableFactory) -> None:
    t = deployed(rules_table)
    applied(t, advance())
    result = applied(t, dislodge("drv", "driving", {"check": [18], "save": [14, 15, 3]}, driving_modifier=12))
    assert labels(result["check"]) == {"driving": 12}
    assert (result["check"]["total"], result["success"], result["margin"], result["corvus_destroyed"]) == (
        30,
        True,
        0,
        False,
    )
    assert [(o["id"], o["save"]["total"], o["fell"]) for o in result["occupants"]] == [
        ("o1", 15, False),
        ("o2", 16, False),
        ("o3", 4, True),
    ]
    assert result["occupants"][0]["save"] == {
        "type": "ref",
        "dc": 15,
        "natural": 14,
        "bonus": 1,
        "total": 15,
        "success": True,
    }
    state = t.state()
    assert find(state, "engines", "cv")["corvus"]["deployed"] is False
    assert find(state, "creatures", "o3")["conditions"] == ["fallen"]
    assert find(state, "creatures", "drv")["actions"] == {"standard": False, "move": True}


@rule("PF-ASSAULT-07", "PF-DEF-06")
def test_success_by_five_destroys_the_corvus(rules_table: TableFactory) -> None:
    t = deployed(rules_table)
    result = applied(
        t, dislodge("drv", "driving", {"check": [20], "save": [10, 10, 10]}, driving_modifier=15)
    )
    assert (result["margin"], result["corvus_destroyed"]) == (5, True)
    assert [o["fell"] for o in result["occupants"]] == [True, True, True]
    cv = find(t.state(), "engines", "cv")
    assert (cv["destroyed"], cv["crew_ids"]) == (True, [])
    assert find(t.state(), "creatures", "sailor")["crewing"] is None


@rule("PF-ASSAULT-07")
def test_only_small_and_medium_occupants_raise_the_dc(rules_table: TableFactory) -> None:
    t = deployed(rules_table)
    setup(t, creature("ogre", size="L"), creature("imp", size="T"))
    result = applied(
        t, dislodge("def1", "strength", {"check": [20]}, occupant_ids=["ogre", "o3", "imp", "o1"])
    )
    assert (result["dc"], result["check"]["total"], result["success"], result["occupants"]) == (
        25,
        24,
        False,
        [],
    )


@rule("PF-ASSAULT-07", "PF-GEN-09")
def test_saves_are_drawn_in_creation_order_whatever_the_listed_order(rules_table: TableFactory) -> None:
    t = deployed(rules_table)
    setup(t, creature("giant", str_mod=12))
    result = applied(
        t, dislodge("giant", "strength", {"check": [13], "save": [2, 20]}, occupant_ids=["o3", "o1"])
    )
    assert (result["dc"], result["check"]["total"], result["success"], result["margin"]) == (25, 25, True, 0)
    assert [(o["id"], o["save"]["natural"], o["fell"]) for o in result["occupants"]] == [
        ("o1", 2, True),
        ("o3", 20, False),
    ]


@rule("PF-ASSAULT-07")
def test_refusals_of_dislodge_corvus_in_order(rules_table: TableFactory) -> None:
    t = deck(rules_table, engine("ram", "ram_large"))
    assert (
        rejected(t, {**dislodge("def1", "strength", {"check": [20]}), "engine_id": "ram"}) == "not_a_corvus"
    )
    assert rejected(t, dislodge("def1", "strength", {"check": [20]})) == "corvus_not_deployed"
    assert rejected(t, dislodge("drv", "driving", {"check": [20]})) == "invalid_field"
    assert rejected(t, dislodge("def1", "strength", {"check": [20]}, driving_modifier=3)) == "invalid_field"
    applied(t, use("drop", 10))
    assert (
        rejected(t, dislodge("sailor", "driving", {"check": [20]}, driving_modifier=3))
        == "action_unavailable"
    )
