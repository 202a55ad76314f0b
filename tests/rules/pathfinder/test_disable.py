"""Disabling and sabotage (PF-DISABLE-01..03, PF-TIME-03/04)."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    PROFICIENT,
    advance,
    aim,
    aimed_engine,
    applied,
    at,
    creature,
    crew,
    disable,
    disabling,
    engine,
    find,
    fire,
    load,
    rejected,
    setup,
    skill,
    square,
    who,
)


@pytest.mark.rule("PF-DISABLE-01", "PF-TIME-03", "PF-TIME-04")
def test_an_inoperable_engine_is_disabled_when_the_rolled_rounds_end(rules_table: TableFactory) -> None:
    t = disabling(rules_table, engine("lc", "catapult_light"))
    outcome = t.send(disable("lc", "inoperable", {"disable_rounds": [2, 3], "check": [12]}))
    assert outcome["result"] == {
        "rounds": 5,
        "dc": 20,
        "check": {
            "slot": "check",
            "natural": 12,
            "modifiers": [{"label": "disable_device", "value": 10}],
            "total": 22,
            "target_number": 20,
            "success": True,
        },
        "success": True,
        "effective_at_round": 6,
        "mode": "inoperable",
        "round": 1,
        "unused_dice": [],
    }
    assert [(r["slot"], r["die"], r["value"]) for r in outcome["rolls"]] == [
        ("disable_rounds", "d4", 2),
        ("disable_rounds", "d4", 3),
        ("check", "d20", 12),
    ]
    assert find(t.state(), "creatures", "rogue")["busy_until_round"] == 6
    assert applied(t, advance(4))["completed"] == []
    assert find(t.state(), "engines", "lc")["disabled"] is False
    assert applied(t, advance())["completed"] == [
        {"round": 6, "kind": "disable", "entity_id": "lc", "effect": {"disabled": True}}
    ]
    assert find(t.state(), "engines", "lc")["disabled"] is True


@pytest.mark.rule("PF-DISABLE-01", "PF-GEN-06")
def test_the_rounds_are_drawn_before_the_check(rules_table: TableFactory) -> None:
    t = disabling(rules_table, engine("lc", "catapult_light"))
    outcome = t.send(disable("lc", "sabotage"))
    assert [(r["slot"], r["source"]) for r in outcome["rolls"]] == [
        ("disable_rounds", "stream"),
        ("disable_rounds", "stream"),
        ("check", "stream"),
    ]
    rounds = outcome["rolls"][0]["value"] + outcome["rolls"][1]["value"]
    assert outcome["result"]["rounds"] == rounds
    short = disabling(rules_table, engine("lc", "catapult_light"))
    assert rejected(short, disable("lc", "sabotage", {"disable_rounds": [2]})) == "dice_count_mismatch"


@pytest.mark.rule("PF-DISABLE-01", "PF-TIME-03")
def test_a_failed_attempt_takes_no_effect_but_the_rounds_are_spent(rules_table: TableFactory) -> None:
    t = disabling(rules_table, engine("lc", "catapult_light"))
    failed = applied(t, disable("lc", "inoperable", {"disable_rounds": [4, 4], "check": [9]}))
    assert (failed["rounds"], failed["check"]["total"], failed["success"], failed["effective_at_round"]) == (
        8,
        19,
        False,
        None,
    )
    assert (
        rejected(t, disable("lc", "inoperable", {"disable_rounds": [1, 1], "check": [20]})) == "creature_busy"
    )
    assert applied(t, advance(8))["completed"] == []
    assert find(t.state(), "engines", "lc")["disabled"] is False
    assert (
        applied(t, disable("lc", "inoperable", {"disable_rounds": [1, 1], "check": [20]}))["success"] is True
    )


@pytest.mark.rule("PF-DISABLE-01", "PF-GEN-13")
def test_taking_10_still_rolls_the_rounds(rules_table: TableFactory) -> None:
    t = disabling(rules_table, engine("lc", "catapult_light"))
    outcome = t.send(disable("lc", "sabotage", {"disable_rounds": [1, 2]}, take_10=True))
    result = outcome["result"]
    assert (result["rounds"], result["check"]["natural"], result["check"]["total"], result["success"]) == (
        3,
        10,
        20,
        True,
    )
    assert [r["slot"] for r in outcome["rolls"]] == ["disable_rounds", "disable_rounds"]


@pytest.mark.rule("PF-DISABLE-01", "PF-GEN-13")
def test_disabling_preconditions_in_order(rules_table: TableFactory) -> None:
    t = disabling(
        rules_table,
        engine("gone", "catapult_light", state={"hp": 0}),
        engine("lc", "catapult_light"),
        creature("fallen", hp=0, skills={"disable_device": skill(1, 0)}),
    )
    assert rejected(t, disable("gone", "inoperable")) == "engine_destroyed"
    untrained = {**disable("lc", "inoperable", {"disable_rounds": [1, 1], "check": [20]}), "by": "oaf"}
    assert rejected(t, untrained) == "untrained_skill"
    assert rejected(t, {**untrained, "by": "fallen"}) == "creature_down"
    applied(t, disable("lc", "sabotage", {"disable_rounds": [1, 1], "check": [10]}))
    applied(t, advance(2))
    assert find(t.state(), "engines", "lc")["sabotaged"] is True
    assert (
        rejected(t, disable("lc", "inoperable", {"disable_rounds": [1, 1], "check": [20]}))
        == "already_disabled"
    )


@pytest.mark.rule("PF-DISABLE-01", "PF-TIME-02")
def test_disabling_is_a_full_round_action(rules_table: TableFactory) -> None:
    t = disabling(
        rules_table, engine("lc", "catapult_light"), engine("lb", "ballista_light"), crew("lb", "rogue")
    )
    applied(t, load("lb", ("rogue", 1)))
    assert (
        rejected(t, disable("lc", "inoperable", {"disable_rounds": [1, 1], "check": [20]}))
        == "action_unavailable"
    )


def sabotaged_ballista(rules_table: TableFactory) -> Table:
    """EX-PF-20's setup, sabotaged in round 1 and effective in round 3."""
    t = disabling(
        rules_table,
        creature("a1", **PROFICIENT),
        creature("dummy", ac=10, hp=30, y=4),
        aimed_engine("lb", "ballista_light"),
        crew("lb", "a1"),
    )
    applied(t, disable("lb", "sabotage", {"disable_rounds": [1, 1], "check": [10]}))
    assert applied(t, advance(2))["completed"] == [
        {"round": 3, "kind": "disable", "entity_id": "lb", "effect": {"sabotaged": True}}
    ]
    return t


@pytest.mark.rule("PF-DISABLE-02", "PF-TIME-03")
def test_a_sabotaged_engine_works_once_then_fails_minutes_later(rules_table: TableFactory) -> None:
    t = sabotaged_ballista(rules_table)
    shot = applied(
        t, fire("lb", {"attack": [15], "damage": [2, 2, 2], "sabotage_minutes": [2]}, target=who("dummy"))
    )
    assert (shot["hit"], shot["sabotage"]) == (True, {"minutes": 2, "disabled_at_round": 23})
    setup(t, advance(), creature("a2"), crew("lb", "a1", "a2"), load("lb", ("a1", 1), ("a2", 1)), advance())
    again = t.send(
        fire("lb", {"attack": [15], "damage": [2, 2, 2], "sabotage_minutes": [4]}, target=who("dummy"))
    )
    assert (again["result"]["sabotage"], again["result"]["unused_dice"]) == (None, ["sabotage_minutes"])
    assert applied(t, advance(17))["completed"] == []
    assert applied(t, advance())["completed"] == [
        {"round": 23, "kind": "sabotage_failure", "entity_id": "lb", "effect": {"disabled": True}}
    ]
    assert rejected(t, load("lb", ("a1", 1))) == "engine_disabled"


@pytest.mark.rule("PF-DISABLE-03")
def test_a_disabled_engine_cannot_be_loaded_aimed_or_fired_but_can_move(rules_table: TableFactory) -> None:
    t = disabling(
        rules_table,
        creature("c1", **PROFICIENT),
        creature("c2", x=1),
        aimed_engine("lc", "catapult_light", square(0, 20)),
        crew("lc", "c1", "c2"),
    )
    applied(t, disable("lc", "inoperable", {"disable_rounds": [1, 1], "check": [10]}))
    applied(t, advance(2))
    assert rejected(t, fire("lc", {"targeting": [10], "damage": [1, 1, 1, 1]})) == "engine_disabled"
    assert rejected(t, aim("lc", square(0, 30), ("c2", 1))) == "engine_disabled"
    assert rejected(t, load("lc", ("c2", 1))) == "engine_disabled"
    moved = applied(t, {"type": "move_engine", "engine_id": "lc", "to": at(0, 2)})
    assert (moved["distance_ft"], moved["speed_ft"]) == (10, 10)
