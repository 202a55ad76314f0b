"""The corvus (§3.21, PF-ASSAULT-06): dropping and resetting it (dislodging it is test_dislodge)."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.harness import RulesTable
from tests.rules.pathfinder.given import (
    advance,
    applied,
    creature,
    crew,
    deck,
    engine,
    find,
    rejected,
    skill,
    use,
)

rule = pytest.mark.rule


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
    assert isinstance(t, RulesTable)  # only the in-process table keeps every outcome
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
