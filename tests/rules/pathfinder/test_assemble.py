"""Assembly (PF-ASSEMBLE-01..05, PF-FEAT-04, PF-TIME-03/04)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
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

WORKERS = tuple(f"w{n}" for n in range(1, 13))
CRAFTY: dict[str, Any] = {"skills": {"craft_siege_engine": skill(1, 2)}}
COMMANDER: dict[str, Any] = {
    "skills": {"craft_siege_engine": skill(5, 7), "knowledge_engineering": skill(5, 5)},
    "feats": ["siege_commander"],
}


def yard(rules_table: TableFactory, *engines: dict[str, Any]) -> Table:
    """Workers w1…w12 (Craft 1/+2), `boss` (Siege Commander, Craft +7), `u1` (Craft 0/+0), and the engines."""
    t = rules_table("pathfinder")
    setup(
        t,
        *(creature(w, **CRAFTY) for w in WORKERS),
        creature("boss", **COMMANDER),
        creature("u1"),
        *engines,
    )
    return t


def assemble(engine_id: str, *workers: str, checks: list[int] | None = None, **fields: Any) -> dict[str, Any]:
    dice = {} if checks is None else {"check": checks}
    return {"type": "assemble", "engine_id": engine_id, "worker_ids": list(workers), **fields, "dice": dice}


@pytest.mark.rule("PF-ASSEMBLE-01", "PF-ASSEMBLE-03")
@pytest.mark.parametrize(
    ("catalog_id", "workers", "rounds"),
    [
        ("catapult_light", 4, 600),
        ("catapult_standard", 6, 1200),
        ("catapult_heavy", 8, 2400),
        ("siege_tower_colossal", 12, 4800),
    ],
)
def test_a_full_team_assembles_in_the_table_time(
    rules_table: TableFactory, catalog_id: str, workers: int, rounds: int
) -> None:
    t = yard(rules_table, engine("e", catalog_id, assembled=False))
    result = applied(t, assemble("e", *WORKERS[:workers], checks=[10] * workers))
    assert (result["required_workers"], result["result"], result["successful_workers"]) == (
        workers,
        "assembled",
        workers,
    )
    assert (result["duration_rounds"], result["completes_at_round"]) == (rounds, 1 + rounds)


@pytest.mark.rule("PF-ASSEMBLE-02")
def test_each_worker_rolls_craft_dc_10_in_listed_order(rules_table: TableFactory) -> None:
    t = yard(rules_table, engine("cat", "catapult_light", assembled=False))
    outcome = t.send(assemble("cat", "w3", "u1", "w1", "w2", checks=[10, 9, 8, 1]))
    assert outcome["status"] == "applied"
    checks = outcome["result"]["checks"]
    assert checks[0] == {
        "slot": "check",
        "natural": 10,
        "modifiers": [{"label": "craft_siege_engine", "value": 2}],
        "total": 12,
        "target_number": 10,
        "success": True,
    }
    assert [(c["total"], c["success"]) for c in checks] == [(12, True), (9, False), (10, True), (3, False)]
    assert checks[1]["modifiers"] == []
    assert [r["value"] for r in outcome["rolls"]] == [10, 9, 8, 1]
    assert outcome["result"]["successful_workers"] == 2


@pytest.mark.rule("PF-ASSEMBLE-01")
@pytest.mark.parametrize(
    ("catalog_id", "too_few", "enough"), [("catapult_standard", 2, 3), ("catapult_light", 1, 2)]
)
def test_fewer_than_half_the_workers_may_not_start(
    rules_table: TableFactory, catalog_id: str, too_few: int, enough: int
) -> None:
    t = yard(rules_table, engine("e", catalog_id, assembled=False))
    assert rejected(t, assemble("e", *WORKERS[:too_few])) == "too_few_workers"
    assert rejected(t, assemble("e")) == "too_few_workers"
    applied(t, assemble("e", *WORKERS[:enough], checks=[10] * enough))


@pytest.mark.rule("PF-ASSEMBLE-03")
def test_half_the_successes_doubles_the_time(rules_table: TableFactory) -> None:
    t = yard(rules_table, engine("cat", "catapult_standard"))
    result = applied(t, assemble("cat", "w1", "w2", "w3", checks=[10, 10, 10]))
    assert (result["result"], result["duration_rounds"], result["completes_at_round"]) == (
        "assembled_double_time",
        2400,
        2401,
    )
    mixed = yard(rules_table, engine("cat", "catapult_standard"))
    assert applied(mixed, assemble("cat", *WORKERS[:6], checks=[10, 10, 10, 1, 1, 1]))["result"] == (
        "assembled_double_time"
    )


@pytest.mark.rule("PF-ASSEMBLE-03", "PF-TIME-03", "PF-TIME-04")
def test_too_few_successes_fail_and_block_a_retry_for_an_hour(rules_table: TableFactory) -> None:
    t = yard(rules_table, engine("cat", "catapult_standard"))
    failed = applied(t, assemble("cat", *WORKERS[:6], checks=[10, 10, 1, 1, 1, 1]))
    assert (failed["successful_workers"], failed["result"]) == (2, "failed")
    assert (failed["duration_rounds"], failed["completes_at_round"]) == (600, 601)
    assert rejected(t, assemble("cat", "w7", "w8", "w9", checks=[10, 10, 10])) == "assembly_in_progress"
    assert find(t.state(), "creatures", "w1")["busy_until_round"] == 601
    done = applied(t, advance(600))
    assert done["completed"] == [
        {"round": 601, "kind": "assembly_retry_open", "entity_id": "cat", "effect": {}}
    ]
    assert find(t.state(), "engines", "cat")["assembled"] is False
    assert applied(t, assemble("cat", *WORKERS[:6], checks=[10] * 6))["completes_at_round"] == 1801


@pytest.mark.rule("PF-ASSEMBLE-02", "PF-ASSEMBLE-03", "PF-FEAT-04")
def test_a_siege_commander_adds_4_to_every_worker_and_halves_the_time(rules_table: TableFactory) -> None:
    t = yard(rules_table, engine("cat", "catapult_standard"))
    led = applied(t, assemble("cat", "boss", "w1", "w2", "w3", "w4", "w5", leader_id="boss", checks=[4] * 6))
    assert [c["total"] for c in led["checks"]] == [15, 10, 10, 10, 10, 10]
    assert led["checks"][1]["modifiers"] == [
        {"label": "craft_siege_engine", "value": 2},
        {"label": "siege_commander", "value": 4},
    ]
    assert (led["result"], led["duration_rounds"], led["completes_at_round"]) == ("assembled", 600, 601)
    double = yard(rules_table, engine("cat", "catapult_standard"))
    halved = applied(double, assemble("cat", "boss", "w1", "w2", leader_id="boss", checks=[5, 5, 5]))
    assert [c["total"] for c in halved["checks"]] == [16, 11, 11]
    assert (halved["result"], halved["duration_rounds"]) == ("assembled_double_time", 1200)


@pytest.mark.rule("PF-ASSEMBLE-02", "PF-ASSEMBLE-03", "PF-FEAT-04")
def test_a_leader_without_the_feat_changes_nothing_and_a_failure_hour_is_not_halved(
    rules_table: TableFactory,
) -> None:
    t = yard(rules_table, engine("cat", "catapult_standard"))
    plain = applied(t, assemble("cat", *WORKERS[:6], leader_id="w1", checks=[8] * 6))
    assert ([c["total"] for c in plain["checks"]], plain["duration_rounds"]) == ([10] * 6, 1200)
    failing = yard(rules_table, engine("cat", "catapult_standard"))
    failed = applied(failing, assemble("cat", "boss", "w1", "w2", leader_id="boss", checks=[1, 1, 1]))
    assert [c["total"] for c in failed["checks"]] == [12, 7, 7]
    assert (failed["successful_workers"], failed["result"], failed["duration_rounds"]) == (1, "failed", 600)


@pytest.mark.rule("PF-ASSEMBLE-02", "PF-GEN-13")
def test_taking_10_draws_no_die_and_needs_a_rank(rules_table: TableFactory) -> None:
    t = yard(rules_table, engine("cat", "catapult_standard"))
    refused = assemble("cat", "w1", "w2", "u1", take_10=["u1"])
    assert rejected(t, refused) == "untrained_cannot_take_10"
    outcome = t.send(assemble("cat", "w1", "w2", "w3", take_10=["w2"], checks=[3, 18]))
    assert outcome["status"] == "applied"
    assert [(c["natural"], c["total"]) for c in outcome["result"]["checks"]] == [(3, 5), (10, 12), (18, 20)]
    assert [r["value"] for r in outcome["rolls"]] == [3, 18]
    assert outcome["result"]["result"] == "failed"


@pytest.mark.rule("PF-ASSEMBLE-02", "PF-GEN-06")
def test_one_check_die_per_rolling_worker(rules_table: TableFactory) -> None:
    t = yard(rules_table, engine("cat", "catapult_light", assembled=False))
    assert rejected(t, assemble("cat", *WORKERS[:4], checks=[10, 10, 10])) == "dice_count_mismatch"
    assert rejected(t, assemble("cat", *WORKERS[:4], checks=[10, 10, 10, 21])) == "dice_value_out_of_range"


@pytest.mark.rule("PF-ASSEMBLE-03", "PF-TIME-03", "PF-TIME-04", "PF-ASSEMBLE-05")
def test_the_engine_is_assembled_when_its_round_begins(rules_table: TableFactory) -> None:
    t = yard(rules_table, engine("cat", "catapult_light", assembled=False), engine("cs", "catapult_standard"))
    applied(t, assemble("cat", *WORKERS[:4], checks=[10] * 4))
    assert rejected(t, assemble("cat", *WORKERS[4:8], checks=[10] * 4)) == "assembly_in_progress"
    assert rejected(t, assemble("cs", "w1", "w5", "w6", checks=[10] * 3)) == "creature_busy"
    assert find(t.state(), "engines", "cat")["busy_until_round"] == 601
    assert applied(t, advance(599))["completed"] == []
    assert find(t.state(), "engines", "cat")["assembled"] is False
    done = applied(t, advance())
    assert done["completed"] == [
        {"round": 601, "kind": "assembly", "entity_id": "cat", "effect": {"assembled": True}}
    ]
    assert rejected(t, assemble("cat", *WORKERS[:4], checks=[10] * 4)) == "already_assembled"
    setup(t, {"type": "assign_crew", "engine_id": "cat", "creature_ids": ["w1", "w2"], "leader_id": "w1"})
    assert applied(t, load("cat", ("w1", 1), ("w2", 1)))["load_progress"] == 2


@pytest.mark.rule("PF-ASSEMBLE-05")
def test_an_unassembled_engine_may_be_crewed_but_not_loaded(rules_table: TableFactory) -> None:
    t = yard(rules_table, engine("cs", "catapult_standard"))
    setup(
        t, {"type": "assign_crew", "engine_id": "cs", "creature_ids": ["w1", "w2", "w3"], "leader_id": "w1"}
    )
    assert rejected(t, load("cs", ("w1", 1))) == "engine_not_assembled"


@pytest.mark.rule("PF-ASSEMBLE-04")
def test_a_telekinetic_assembly_that_replaces_every_worker_needs_no_check(rules_table: TableFactory) -> None:
    t = yard(rules_table, engine("cs", "catapult_standard"))
    spell = {"caster_level": 9, "knowledge_engineering_ranks": 5}  # 4 + 1 + 1 = 6 workers
    outcome = t.send(assemble("cs", telekinetic_assembly=spell))
    assert outcome["status"] == "applied"
    assert outcome["result"] == {
        "required_workers": 6,
        "replaced_by_spell": 6,
        "checks": [],
        "successful_workers": None,
        "result": "assembled",
        "duration_rounds": 1200,
        "completes_at_round": 1201,
        "round": 1,
        "unused_dice": [],
    }
    assert outcome["rolls"] == []
    beside = yard(rules_table, engine("cs", "catapult_standard"))
    ignored = applied(
        beside, assemble("cs", "boss", "u1", leader_id="boss", take_10=["u1"], telekinetic_assembly=spell)
    )
    assert (ignored["checks"], ignored["duration_rounds"]) == ([], 1200)
    assert find(beside.state(), "creatures", "boss")["busy_until_round"] is None


@pytest.mark.rule("PF-ASSEMBLE-04")
def test_a_spell_short_of_the_workers_leaves_the_work_to_them(rules_table: TableFactory) -> None:
    t = yard(rules_table, engine("cs", "catapult_standard"))
    spell = {"caster_level": 8, "knowledge_engineering_ranks": 0}  # 4 < 6
    assert rejected(t, assemble("cs", "w1", telekinetic_assembly=spell)) == "too_few_workers"
    result = applied(t, assemble("cs", "w1", "w2", "w3", telekinetic_assembly=spell, checks=[10, 10, 10]))
    assert (result["replaced_by_spell"], result["successful_workers"], result["result"]) == (
        4,
        3,
        "assembled_double_time",
    )


@pytest.mark.rule("PF-ASSEMBLE-03", "PF-ASSEMBLE-05")
def test_assembly_preconditions_in_order(rules_table: TableFactory) -> None:
    t = yard(
        rules_table,
        engine("gone", "catapult_standard", state={"hp": 0}),
        engine("lb", "ballista_light"),
        engine("cs", "catapult_standard"),
        creature("fallen", hp=0),
    )
    assert rejected(t, assemble("gone", "w1")) == "engine_destroyed"
    assert rejected(t, assemble("lb", "w1")) == "already_assembled"
    assert rejected(t, assemble("cs", "w1", "fallen")) == "creature_down"
    assert rejected(t, assemble("cs", "w1", "w1", "w2")) == "invalid_field"
    assert rejected(t, assemble("cs", "w1", "w2", "w3", leader_id="boss")) == "invalid_field"
    assert rejected(t, assemble("cs", "w1", "w2", "w3", take_10=["w4"])) == "invalid_field"
    assert rejected(t, assemble("cs", "w1", "ghost")) == "unknown_entity"
