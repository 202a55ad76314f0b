"""Repairs (PF-REPAIR-01..04, PF-BUILD-01, PF-FEAT-06, PF-TIME-03/04)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    ROGUE,
    advance,
    applied,
    creature,
    engine,
    find,
    load,
    rejected,
    setup,
    skill,
)

SMITH: dict[str, Any] = {"skills": {"craft_siege_engine": skill(1, 5), "knowledge_engineering": skill(2, 9)}}
FIELD_SMITH: dict[str, Any] = {**SMITH, "bonus_feats": ["field_repair"]}


def workshop(rules_table: TableFactory, *entities: dict[str, Any], **options: Any) -> Table:
    t = rules_table("pathfinder", options or None)
    setup(t, creature("smith", **SMITH), creature("fixer", **FIELD_SMITH), creature("oaf"), *entities)
    return t


def repair(engine_id: str, by: str, kind: str, check: int | None = None, **fields: Any) -> dict[str, Any]:
    dice = {} if check is None else {"check": [check]}
    return {"type": "repair", "engine_id": engine_id, "by": by, "kind": kind, **fields, "dice": dice}


def disabled(t: Table, engine_id: str, mode: str = "inoperable") -> None:
    """`rogue` disables the engine (2 + 2 rounds, 10 + 10 = 20) and the rounds pass."""
    setup(
        t,
        creature("rogue", **ROGUE),
        {
            "type": "disable",
            "engine_id": engine_id,
            "by": "rogue",
            "mode": mode,
            "dice": {"disable_rounds": [2, 2], "check": [10]},
        },
        advance(4),
    )


@pytest.mark.rule("PF-REPAIR-01", "PF-REPAIR-04", "PF-BUILD-01", "PF-TIME-03")
def test_a_craft_check_against_the_craft_dc_clears_a_mishap_after_ten_minutes(
    rules_table: TableFactory,
) -> None:
    t = workshop(rules_table, engine("lc", "catapult_light", state={"broken": True}))
    outcome = t.send(repair("lc", "smith", "broken", 15))
    assert outcome["result"] == {
        "dc": 20,
        "check": {
            "slot": "check",
            "natural": 15,
            "modifiers": [{"label": "craft_siege_engine", "value": 5}],
            "total": 20,
            "target_number": 20,
            "success": True,
        },
        "success": True,
        "completes_at_round": 101,
        "round": 1,
        "unused_dice": [],
    }
    assert [(r["slot"], r["value"], r["source"]) for r in outcome["rolls"]] == [("check", 15, "client")]
    assert applied(t, advance(99))["completed"] == []
    assert find(t.state(), "engines", "lc")["broken_by_mishap"] is True
    done = applied(t, advance())
    assert done["completed"] == [
        {"round": 101, "kind": "repair", "entity_id": "lc", "effect": {"broken_by_mishap": False}}
    ]
    assert find(t.state(), "engines", "lc")["broken_by_mishap"] is False


@pytest.mark.rule("PF-BUILD-01", "PF-REPAIR-01")
def test_a_masterwork_engine_needs_dc_25(rules_table: TableFactory) -> None:
    t = workshop(rules_table, engine("lc", "catapult_light", masterwork=True, state={"broken": True}))
    result = applied(t, repair("lc", "smith", "broken", 19))
    assert (result["dc"], result["check"]["total"], result["success"]) == (25, 24, False)


@pytest.mark.rule("PF-REPAIR-01", "PF-REPAIR-04", "PF-TIME-03", "PF-TIME-04")
def test_a_failed_repair_keeps_both_busy_and_may_be_retried(rules_table: TableFactory) -> None:
    t = workshop(rules_table, engine("lc", "catapult_light", state={"broken": True}))
    failed = applied(t, repair("lc", "smith", "broken", 14))
    assert (failed["check"]["total"], failed["success"], failed["completes_at_round"]) == (19, False, 101)
    assert rejected(t, repair("lc", "fixer", "broken", 20)) == "engine_busy"
    assert rejected(t, repair("lc", "fixer", "disabled", 20)) == "engine_busy"
    assert find(t.state(), "creatures", "smith")["busy_until_round"] == 101
    assert find(t.state(), "engines", "lc")["busy_until_round"] == 101
    assert applied(t, advance(100))["completed"] == []
    assert find(t.state(), "engines", "lc")["broken_by_mishap"] is True
    assert applied(t, repair("lc", "smith", "broken", 15))["completes_at_round"] == 201


@pytest.mark.rule("PF-REPAIR-01", "PF-DEF-05")
def test_damage_is_not_repaired(rules_table: TableFactory) -> None:
    t = workshop(
        rules_table, engine("lc", "catapult_light", state={"hp": 20}), engine("ok", "ballista_light")
    )
    assert rejected(t, repair("lc", "smith", "broken", 15)) == "engine_not_broken"
    assert rejected(t, repair("ok", "smith", "broken", 15)) == "engine_not_broken"


@pytest.mark.rule("PF-REPAIR-02", "PF-FEAT-06")
@pytest.mark.parametrize(
    ("catalog_id", "dc"),
    [
        ("cannon", 35),
        ("bombard_standard", 30),
        ("bombard_heavy", 25),
        ("ballista_light", 30),
        ("ballista_heavy", 25),
        ("ballista_gate_breaker", 20),
        ("trebuchet_heavy", 20),
    ],
)
def test_field_repair_dc_follows_the_class(rules_table: TableFactory, catalog_id: str, dc: int) -> None:
    t = workshop(rules_table, engine("e", catalog_id, assembled=True, state={"broken": True}))
    result = applied(t, repair("e", "fixer", "broken", method="field_repair", take_10=True))
    assert (result["dc"], result["check"]["total"], result["success"]) == (dc, 15, dc <= 15)


@pytest.mark.rule("PF-REPAIR-02")
def test_the_light_ranged_field_repair_dc_is_an_option(rules_table: TableFactory) -> None:
    t = workshop(
        rules_table,
        engine("lb", "ballista_light", state={"broken": True}),
        field_repair_light_ranged_dc=15,
    )
    result = applied(t, repair("lb", "fixer", "broken", method="field_repair", take_10=True))
    assert (result["dc"], result["check"]["natural"], result["success"]) == (15, 10, True)
    assert applied(t, advance(100))["completed"][0]["effect"] == {"broken_by_mishap": False}


@pytest.mark.rule("PF-REPAIR-02", "PF-FEAT-06")
def test_field_repair_needs_the_feat_and_a_ranged_engine(rules_table: TableFactory) -> None:
    t = workshop(
        rules_table,
        engine("lb", "ballista_light", state={"broken": True}),
        engine("ram", "ram_large", state={"broken": True}),
    )
    assert rejected(t, repair("lb", "smith", "broken", 10, method="field_repair")) == "feat_required"
    assert rejected(t, repair("ram", "fixer", "broken", 10, method="field_repair")) == "invalid_field"
    assert applied(t, repair("ram", "fixer", "broken", 15))["dc"] == 20


@pytest.mark.rule("PF-REPAIR-03", "PF-GEN-13")
@pytest.mark.parametrize(
    ("skill_id", "natural", "label", "total"),
    [
        ("craft_siege_engine", 15, "craft_siege_engine", 20),
        ("knowledge_engineering", 11, "knowledge_engineering", 20),
    ],
)
def test_a_disabled_engine_is_fixed_with_the_named_skill(
    rules_table: TableFactory, skill_id: str, natural: int, label: str, total: int
) -> None:
    t = workshop(rules_table, engine("lc", "catapult_light"))
    disabled(t, "lc")
    assert find(t.state(), "engines", "lc")["disabled"] is True
    result = applied(t, repair("lc", "smith", "disabled", natural, skill=skill_id))
    assert result["check"]["modifiers"] == [{"label": label, "value": total - natural}]
    assert (result["dc"], result["check"]["total"], result["success"], result["completes_at_round"]) == (
        20,
        total,
        True,
        105,
    )
    assert applied(t, advance(100))["completed"] == [
        {"round": 105, "kind": "repair", "entity_id": "lc", "effect": {"disabled": False, "sabotaged": False}}
    ]
    assert find(t.state(), "engines", "lc")["disabled"] is False


@pytest.mark.rule("PF-REPAIR-03", "PF-DISABLE-02")
def test_a_sabotaged_engine_is_fixed_before_it_fails(rules_table: TableFactory) -> None:
    t = workshop(rules_table, engine("lc", "catapult_light"))
    disabled(t, "lc", mode="sabotage")
    applied(t, repair("lc", "smith", "disabled", 15))
    applied(t, advance(100))
    lc = find(t.state(), "engines", "lc")
    assert (lc["disabled"], lc["sabotaged"]) == (False, False)


@pytest.mark.rule("PF-REPAIR-03", "PF-GEN-13")
def test_untrained_skills_cannot_fix_a_disabled_engine(rules_table: TableFactory) -> None:
    t = workshop(
        rules_table, engine("lc", "catapult_light"), engine("ok", "ballista_light"), creature("fallen", hp=0)
    )
    assert rejected(t, repair("ok", "smith", "disabled", 15)) == "engine_not_disabled"
    disabled(t, "lc")
    assert rejected(t, repair("lc", "fallen", "disabled", 15, skill="disable_device")) == "untrained_skill"
    assert rejected(t, repair("lc", "oaf", "disabled", 15, skill="disable_device")) == "untrained_skill"
    assert (
        rejected(t, repair("lc", "oaf", "disabled", 15, skill="knowledge_engineering")) == "untrained_skill"
    )
    assert applied(t, repair("lc", "oaf", "disabled", 19))["success"] is False


@pytest.mark.rule("PF-REPAIR-03", "PF-GEN-13")
def test_one_rank_of_knowledge_engineering_is_training_enough_against_dc_20(
    rules_table: TableFactory,
) -> None:
    t = workshop(
        rules_table,
        engine("lc", "catapult_light"),
        creature("novice", skills={"knowledge_engineering": skill(1, 3)}),
    )
    disabled(t, "lc")
    result = applied(t, repair("lc", "novice", "disabled", 17, skill="knowledge_engineering"))
    assert (result["dc"], result["check"]["total"], result["success"]) == (20, 20, True)


@pytest.mark.rule("PF-REPAIR-04", "PF-TIME-02", "PF-TIME-04")
def test_a_repairer_spends_a_full_round_and_is_then_busy(rules_table: TableFactory) -> None:
    t = workshop(
        rules_table,
        engine("lc", "catapult_light", state={"broken": True}),
        engine("lb", "ballista_light", state={"broken": True}),
        {"type": "assign_crew", "engine_id": "lc", "creature_ids": ["oaf"], "leader_id": "oaf"},
    )
    applied(t, load("lc", ("oaf", 1)))
    assert rejected(t, repair("lb", "oaf", "broken", 15)) == "action_unavailable"
    applied(t, repair("lc", "smith", "broken", take_10=True))
    assert rejected(t, repair("lb", "smith", "broken", 15)) == "creature_busy"
    assert find(t.state(), "creatures", "smith")["actions"] == {"standard": False, "move": False}


@pytest.mark.rule("PF-REPAIR-01", "PF-REPAIR-02", "PF-REPAIR-04")
def test_repair_preconditions_in_order(rules_table: TableFactory) -> None:
    t = workshop(
        rules_table,
        engine("gone", "catapult_light", state={"hp": 0, "broken": True}),
        engine("lb", "ballista_light", state={"broken": True}),
        creature("fallen", hp=0),
    )
    assert rejected(t, repair("gone", "smith", "broken", 15)) == "engine_destroyed"
    assert rejected(t, repair("lb", "smith", "disabled", 15, method="field_repair")) == "invalid_field"
    assert rejected(t, repair("lb", "smith", "broken", 15, skill="disable_device")) == "invalid_field"
    assert rejected(t, repair("lb", "smith", "disabled", 15)) == "engine_not_disabled"
    assert rejected(t, repair("lb", "fallen", "broken", 15, method="field_repair")) == "feat_required"
    assert rejected(t, repair("lb", "fallen", "broken", 15)) == "creature_down"
    take_10 = t.send(repair("lb", "smith", "broken", 15, take_10=True))
    assert (take_10["result"]["check"]["natural"], take_10["result"]["unused_dice"], take_10["rolls"]) == (
        10,
        ["check"],
        [],
    )
