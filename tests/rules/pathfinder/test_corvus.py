"""The corvus (§3.21/3.22, PF-ASSAULT-06/07): dropping, resetting and dislodging it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    advance,
    applied,
    creature,
    crew,
    engine,
    find,
    labels,
    rejected,
    setup,
    skill,
)

rule = pytest.mark.rule
OCCUPANTS = ("o1", "o2", "o3")


def use(action: str, check: int | None = None, **fields: Any) -> dict[str, Any]:
    dice = {} if check is None else {"check": [check]}
    return {"type": "use_corvus", "engine_id": "cv", "action": action, **fields, "dice": dice}


def dislodge(by: str, method: str, dice: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "type": "dislodge_corvus",
        "engine_id": "cv",
        "by": by,
        "method": method,
        "occupant_ids": list(OCCUPANTS),
        **fields,
        "dice": dice,
    }


def deck(rules_table: TableFactory, *more: dict[str, Any], sailor: dict[str, Any] | None = None) -> Table:
    """EX-PF-25: corvus `cv` crewed by `sailor` (Prof 1/+3); o1…o3 (ref +1), `def1` (str +4), `drv`."""
    t = rules_table("pathfinder")
    setup(
        t,
        engine("cv", "corvus"),
        creature("sailor", **(sailor or {"skills": {"profession_siege_engineer": skill(1, 3)}})),
        crew("cv", "sailor"),
        *(creature(o, saves={"ref": 1}) for o in OCCUPANTS),
        creature("def1", str_mod=4),
        creature("drv"),
        *more,
    )
    return t


def deployed(rules_table: TableFactory) -> Table:
    t = deck(rules_table)
    applied(t, use("drop", 7))
    return t


@rule("PF-ASSAULT-06", "PF-DEF-01", "PF-DEF-02")
def test_a_corvus_is_large_with_sixty_hp_and_crew_one(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    placed = applied(t, engine("cv", "corvus"))
    assert (placed["size"], placed["ac"], placed["hardness"], placed["max_hp"], placed["crew_required"]) == (
        "L",
        4,
        5,
        60,
        1,
    )
    huge = applied(t, engine("cv2", "corvus", stat_overrides={"size": "H", "hp": 90}))
    assert (huge["size"], huge["ac"], huge["max_hp"]) == ("H", 3, 90)


@rule("PF-ASSAULT-06", "PF-GEN-13")
def test_a_failed_drop_needs_a_reset_before_the_next(rules_table: TableFactory) -> None:
    t = deck(rules_table)
    failed = applied(t, use("drop", 6))
    assert failed == {
        "check": {
            "slot": "check",
            "natural": 6,
            "modifiers": [{"label": "profession_siege_engineer", "value": 3}],
            "total": 9,
            "target_number": 10,
            "success": False,
        },
        "success": False,
        "deployed": False,
        "needs_reset": True,
        "round": 1,
        "unused_dice": [],
    }
    applied(t, advance())
    assert rejected(t, use("drop", 15)) == "corvus_needs_reset"
    reset = applied(t, use("reset"))
    assert reset == {
        "check": None,
        "success": None,
        "deployed": False,
        "needs_reset": False,
        "round": 2,
        "unused_dice": [],
    }
    assert find(t.state(), "creatures", "sailor")["actions"] == {"standard": False, "move": False}
    applied(t, advance())
    dropped = applied(t, use("drop", 7))
    assert (dropped["check"]["total"], dropped["success"], dropped["deployed"]) == (10, True, True)
    assert find(t.state(), "engines", "cv")["corvus"] == {"deployed": True, "needs_reset": False}


@rule("PF-ASSAULT-06", "PF-GEN-13")
def test_taking_ten_drops_without_a_die(rules_table: TableFactory) -> None:
    t = deck(rules_table)
    result = applied(t, use("drop", take_10=True))
    assert (result["check"]["natural"], result["check"]["total"], result["deployed"]) == (10, 13, True)
    assert t.outcomes[-1]["rolls"] == []


@rule("PF-ASSAULT-06")
def test_refusals_of_use_corvus_in_order(rules_table: TableFactory) -> None:
    t = deck(rules_table, engine("ram", "ram_large"), creature("novice"), engine("cv2", "corvus"))
    assert rejected(t, {**use("drop", 10), "engine_id": "ram"}) == "not_a_corvus"
    assert rejected(t, {**use("drop", 10), "engine_id": "cv2"}) == "no_crew"
    assert rejected(t, use("reset")) == "nothing_to_reset"
    assert rejected(t, use("reset", take_10=True)) == "invalid_field"
    applied(t, crew("cv2", "novice"))
    assert rejected(t, {**use("drop", 10), "engine_id": "cv2"}) == "untrained_skill"
    applied(t, use("drop", 10))
    assert rejected(t, use("drop", 10)) == "corvus_already_deployed"
    assert rejected(t, use("reset")) == "nothing_to_reset"


@rule("PF-ASSAULT-06", "PF-TIME-02")
def test_a_drop_is_a_full_round_action_of_the_leader(rules_table: TableFactory) -> None:
    t = deck(rules_table)
    applied(t, use("drop", 2))
    assert rejected(t, use("reset")) == "action_unavailable"


@rule("PF-DISABLE-02", "PF-ASSAULT-06")
def test_a_sabotaged_corvus_draws_its_minutes_on_the_next_use(rules_table: TableFactory) -> None:
    t = deck(rules_table, creature("rogue", skills={"disable_device": skill(4, 10)}))
    applied(
        t,
        {
            "type": "disable",
            "engine_id": "cv",
            "by": "rogue",
            "mode": "sabotage",
            "dice": {"disable_rounds": [1, 1], "check": [10]},
        },
    )
    applied(t, advance(2))
    outcome = t.send({**use("drop"), "dice": {"check": [10], "sabotage_minutes": [1]}})
    assert outcome["result"]["deployed"] is True
    assert [r["slot"] for r in outcome["rolls"]] == ["check", "sabotage_minutes"]
    applied(t, advance(10))
    assert find(t.state(), "engines", "cv")["disabled"] is True


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
