"""The crushing wheel (§3.23, PF-ASSAULT-11): one 4d6 roll, a Reflex save each, prone on a failure."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import RulesTable, Table
from tests.rules.pathfinder.given import (
    REPAIRER,
    advance,
    applied,
    busy_repairing,
    creature,
    crew,
    effect,
    engine,
    find,
    rejected,
    setup,
    skill,
)

rule = pytest.mark.rule
WHEELERS = ("w1", "w2", "w3", "w4")


def crush(*targets: str, dice: dict[str, Any] | None = None, wheel: str = "cw") -> dict[str, Any]:
    return {"type": "crush", "engine_id": wheel, "target_ids": list(targets), "dice": dice or {}}


def field(rules_table: TableFactory, *more: dict[str, Any], **placed: Any) -> Table:
    """A crushing wheel `cw` at (0,0) with four Medium crew; `a` (ref +2, hp 20) then `b` (ref 0, hp 20)."""
    t = rules_table("pathfinder")
    setup(
        t,
        engine("cw", "crushing_wheel", **placed),
        *(creature(w) for w in WHEELERS),
        crew("cw", *WHEELERS),
        creature("a", y=1, hp=20, saves={"ref": 2}),
        creature("b", x=2, y=1, hp=20),
        *more,
    )
    return t


@rule("PF-ASSAULT-11", "PF-GEN-09", "PF-GEN-05", "PF-GEN-11")
def test_one_roll_a_save_each_failure_full_and_prone_success_half(rules_table: TableFactory) -> None:
    t = field(rules_table)
    result = applied(t, crush("a", "b", dice={"damage": [6, 5, 4, 2], "save": [13, 14]}))
    assert result["damage"] == {"dice": [6, 5, 4, 2], "static": 0, "total": 17, "base": 17}
    assert result["sabotage"] is None
    assert result["effects"][0] == {
        "entity_kind": "creature",
        "entity_id": "a",
        "distance_ft": 5,
        "zone": "target",
        "damage_in": 17,
        "save": {"type": "ref", "dc": 15, "natural": 13, "bonus": 2, "total": 15, "success": True},
        "damage_after_save": 8,
        "hardness_applied": 0,
        "hp_loss": 8,
        "hp_before": 20,
        "hp_after": 12,
        "conditions_added": [],
        "cave_in": False,
    }
    b = effect(result, "b")
    assert (b["distance_ft"], b["save"]["total"], b["save"]["success"]) == (10, 14, False)
    assert (b["damage_after_save"], b["hp_after"], b["conditions_added"]) == (17, 3, ["prone"])
    assert find(t.state(), "creatures", "b")["conditions"] == ["prone"]
    assert isinstance(t, RulesTable)  # only the in-process table keeps every outcome
    assert [r["slot"] for r in t.outcomes[-1]["rolls"]] == ["damage"] * 4 + ["save"] * 2


@rule("PF-ASSAULT-11", "PF-GEN-09")
def test_saves_follow_creation_order_whatever_the_listed_order(rules_table: TableFactory) -> None:
    result = applied(field(rules_table), crush("b", "a", dice={"damage": [1, 1, 1, 1], "save": [20, 1]}))
    assert [(e["entity_id"], e["save"]["natural"], e["save"]["success"]) for e in result["effects"]] == [
        ("a", 20, True),
        ("b", 1, False),
    ]
    assert [(e["damage_after_save"], e["conditions_added"]) for e in result["effects"]] == [
        (2, []),
        (4, ["prone"]),
    ]


@rule("PF-ASSAULT-11", "PF-DEF-05", "PF-MAGIC-03", "PF-GEN-10")
def test_enhancement_and_broken_are_the_static_modifiers(rules_table: TableFactory) -> None:
    magic = applied(
        field(rules_table, masterwork=True, enhancement=2),
        crush("a", dice={"damage": [3, 3, 3, 3], "save": [2]}),
    )
    assert (magic["damage"]["static"], magic["damage"]["total"]) == (2, 14)
    broken = applied(
        field(rules_table, state={"broken": True}), crush("a", dice={"damage": [1, 1, 1, 1], "save": [2]})
    )
    assert (broken["damage"]["static"], broken["damage"]["total"], broken["damage"]["base"]) == (-2, 2, 2)
    least = applied(
        field(rules_table, state={"hp": 10}), crush("a", dice={"damage": [1, 1, 1, 1], "save": [20]})
    )
    # 4 − 2 = 2, halved by the save to 1
    assert effect(least, "a")["damage_after_save"] == 1


@rule("PF-ASSAULT-11", "PF-CRIT-04")
def test_the_wheel_never_threatens(rules_table: TableFactory) -> None:
    result = applied(field(rules_table), crush("a", dice={"damage": [6, 6, 6, 6], "save": [1]}))
    assert (
        result["damage"]["total"],
        effect(result, "a")["hp_after"],
        effect(result, "a")["conditions_added"],
    ) == (
        24,
        -4,
        ["prone", "down"],
    )


@rule("PF-ASSAULT-11", "PF-TIME-02")
def test_every_crew_member_spends_a_full_round(rules_table: TableFactory) -> None:
    t = field(rules_table)
    applied(t, crush("a", dice={"damage": [1, 1, 1, 1], "save": [20]}))
    for w in WHEELERS:
        assert find(t.state(), "creatures", w)["actions"] == {"standard": False, "move": False}
    assert rejected(t, crush("a")) == "action_unavailable"
    applied(t, advance())
    assert applied(t, crush("a", dice={"damage": [1, 1, 1, 1], "save": [20]}))["round"] == 2


@rule("PF-DISABLE-02", "PF-ASSAULT-11")
def test_a_sabotaged_wheel_draws_its_minutes_last(rules_table: TableFactory) -> None:
    t = field(rules_table, creature("rogue", skills={"disable_device": skill(4, 10)}))
    sabotage = {"type": "disable", "engine_id": "cw", "by": "rogue", "mode": "sabotage"}
    applied(t, {**sabotage, "dice": {"disable_rounds": [1, 1], "check": [10]}})
    applied(t, advance(2))
    outcome = t.send(crush("a", dice={"damage": [1, 1, 1, 1], "save": [20], "sabotage_minutes": [4]}))
    assert outcome["result"]["sabotage"] == {"minutes": 4, "disabled_at_round": 43}
    assert outcome["rolls"][-1]["slot"] == "sabotage_minutes"


@rule("PF-ASSAULT-11", "PF-GEN-06")
def test_the_damage_is_four_d6(rules_table: TableFactory) -> None:
    t = field(rules_table)
    assert rejected(t, crush("a", dice={"damage": [1, 1, 1], "save": [20]})) == "dice_count_mismatch"
    assert rejected(t, crush("a", dice={"damage": [1, 1, 1, 7], "save": [20]})) == "dice_value_out_of_range"


@rule("PF-ASSAULT-11", "PF-CREW-03", "PF-DISABLE-03")
def test_refusals_in_order(rules_table: TableFactory) -> None:
    t = field(
        rules_table,
        engine("idle", "crushing_wheel"),
        engine("ram", "ram_large"),
        creature("r"),
        crew("ram", "r"),
    )
    assert rejected(t, crush()) == "invalid_field"
    assert rejected(t, crush("a", "a")) == "invalid_field"
    assert rejected(t, crush("a", wheel="idle")) == "no_crew"
    assert rejected(t, crush("a", wheel="ram")) == "not_a_crushing_wheel"
    assert rejected(t, crush("cw")) == "unknown_entity"


@rule("PF-ASSAULT-11", "PF-TIME-04")
def test_a_crew_member_busy_with_a_repair_stops_the_wheel(rules_table: TableFactory) -> None:
    t = field(rules_table, creature("w5", **REPAIRER))
    setup(t, crew("cw", *WHEELERS, "w5"))
    busy_repairing(t, "w5")
    assert rejected(t, crush("a", dice={"damage": [1, 1, 1, 1], "save": [20]})) == "creature_busy"
