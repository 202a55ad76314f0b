"""Breaking structures with Strength (§3.18, PF-STRUCT-07), alone or with a ram (PF-ASSAULT-03/04)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import RulesTable, Table
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
)

rule = pytest.mark.rule
NINE = tuple(f"r{n}" for n in range(1, 10))


def structure(sid: str = "g", kind: str = "gate", material: str = "wood", **fields: Any) -> dict[str, Any]:
    return {
        "type": "add_structure",
        "id": sid,
        "kind": kind,
        "material": material,
        "position": {"x": 0, "y": 1},
        **({"size": "L"} if kind != "wall" else {}),
        **fields,
    }


def smash(dice: int | None = None, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "break", "structure_id": "g", "engine_id": "ram", **fields}
    return {**body, "dice": {} if dice is None else {"check": [dice]}}


def battering(
    rules_table: TableFactory,
    *more: dict[str, Any],
    crew_ids: tuple[str, ...] = NINE,
    target: dict[str, Any] | None = None,
    **placed: Any,
) -> Table:
    """EX-PF-21: ram_huge `ram`, leader `brute` (str +3) and r1…r9, a wooden Large gate `g` (DC 35)."""
    t = rules_table("pathfinder")
    setup(
        t,
        engine("ram", "ram_huge", **placed),
        creature("brute", str_mod=3),
        *(creature(cid) for cid in crew_ids),
        crew("ram", "brute", *crew_ids),
        target or structure(),
        *more,
    )
    return t


@rule("PF-STRUCT-07", "PF-STRUCT-03", "PF-STRUCT-05", "PF-ASSAULT-03", "PF-CREW-02")
def test_a_huge_ram_breaks_a_wooden_gate(rules_table: TableFactory) -> None:
    t = battering(rules_table)
    result = applied(t, smash(4, charging=True))
    assert result == {
        "dc": 35,
        "check": {
            "slot": "check",
            "natural": 4,
            "modifiers": [
                {"label": "str", "value": 3},
                {"label": "ram_base", "value": 2},
                {"label": "ram_assist", "value": 18},
                {"label": "ram_size", "value": 8},
            ],
            "total": 35,
            "target_number": 35,
            "success": True,
        },
        "success": True,
        "structure_after": {"broken": True, "breached": True, "hardness": 2},
        "sabotage": None,
        "round": 1,
        "unused_dice": [],
    }
    g = find(t.state(), "structures", "g")
    assert (g["broken"], g["breached"], g["hp"]) == (True, True, 60)
    for cid in ("brute", *NINE):
        assert find(t.state(), "creatures", cid)["actions"] == {"standard": False, "move": False}


@rule("PF-STRUCT-07", "PF-STRUCT-03", "PF-ASSAULT-04")
@pytest.mark.parametrize(
    ("gate", "placed", "fields", "die", "dc", "extra", "success"),
    [
        ({"size": "H"}, {}, {}, 4, 40, {}, False),
        ({"size": "H", "arcane_lock": True}, {}, {}, 4, 50, {}, False),
        ({}, {}, {"charging": False}, 8, 35, {"not_charging": -4}, True),
        ({}, {"improvised": True}, {}, 8, 35, {"improvised": -4}, True),
        ({"material": "stone"}, {"ram_head": "pick"}, {}, 5, 38, {"ram_head": 2}, True),
    ],
)
def test_the_variants_of_ex_pf_21(
    rules_table: TableFactory,
    gate: dict[str, Any],
    placed: dict[str, Any],
    fields: dict[str, Any],
    die: int,
    dc: int,
    extra: dict[str, int],
    success: bool,
) -> None:
    t = battering(rules_table, target=structure(**gate), **placed)
    result = applied(t, smash(die, **fields))
    assert labels(result["check"]) == {"str": 3, "ram_base": 2, "ram_assist": 18, "ram_size": 8, **extra}
    assert (result["dc"], result["check"]["total"], result["success"]) == (
        dc,
        die + 31 + sum(extra.values()),
        success,
    )
    assert result["structure_after"]["broken"] is success


@rule("PF-ASSAULT-04", "PF-STRUCT-07")
def test_assistance_is_capped_at_the_crew_less_one(rules_table: TableFactory) -> None:
    eleven = tuple(f"r{n}" for n in range(1, 12))
    result = applied(battering(rules_table, crew_ids=eleven), smash(4))
    assert (labels(result["check"])["ram_assist"], result["check"]["total"], result["success"]) == (
        18,
        35,
        True,
    )


@rule("PF-ASSAULT-04", "PF-STRUCT-07")
def test_a_gallery_ram_takes_four_more_helpers_and_no_charge_penalty(rules_table: TableFactory) -> None:
    fifteen = tuple(f"r{n}" for n in range(1, 16))
    t = battering(rules_table, crew_ids=fifteen, gallery_ram=True)
    result = applied(t, smash(1, charging=False))
    # cap crew + 3 = 13 of the 15 helpers
    assert labels(result["check"]) == {"str": 3, "ram_base": 2, "ram_assist": 26, "ram_size": 8}
    assert (result["check"]["total"], result["success"]) == (40, True)


@rule("PF-CREW-02", "PF-CREW-06", "PF-STRUCT-07")
def test_small_helpers_assist_at_half_each(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    small = ("s1", "s2", "s3")
    setup(
        t,
        engine("ram", "ram_large"),
        creature("brute", str_mod=1),
        creature("m1"),
        *(creature(s, size="S") for s in small),
        crew("ram", "brute", "m1", *small),
        structure(),
    )
    result = applied(t, smash(10))
    # 1 + 1.5 equivalents → +5; Large ram +4
    assert labels(result["check"]) == {"str": 1, "ram_base": 2, "ram_assist": 5, "ram_size": 4}
    assert (result["check"]["total"], result["success"]) == (22, False)


@rule("PF-STRUCT-07", "PF-STRUCT-03")
def test_naturals_do_nothing_special_on_a_break_check(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(t, creature("weakling"), structure())
    twenty = applied(t, {"type": "break", "structure_id": "g", "by": "weakling", "dice": {"check": [20]}})
    assert (twenty["check"]["total"], twenty["success"]) == (20, False)
    assert twenty["structure_after"] == {"broken": False, "breached": False, "hardness": 5}
    iron = applied(battering(rules_table, target=structure(material="iron")), smash(1))
    assert (iron["dc"], iron["check"]["total"], iron["success"]) == (24, 32, True)


@rule("PF-STRUCT-07", "PF-TIME-02", "PF-GEN-13")
def test_a_creature_alone_uses_its_strength_and_a_standard_action(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(t, creature("ogre", str_mod=5), structure())
    alone = {"type": "break", "structure_id": "g", "by": "ogre"}
    result = applied(t, {**alone, "dice": {"check": [18]}})
    assert labels(result["check"]) == {"str": 5}
    assert (result["check"]["total"], result["success"]) == (23, False)
    assert find(t.state(), "creatures", "ogre")["actions"] == {"standard": False, "move": True}
    assert rejected(t, {**alone, "dice": {"check": [18]}}) == "action_unavailable"
    applied(t, advance())
    taking_10 = applied(t, {**alone, "take_10": True})
    assert (taking_10["check"]["natural"], taking_10["check"]["total"], taking_10["unused_dice"]) == (
        10,
        15,
        [],
    )
    assert isinstance(t, RulesTable)  # only the in-process table keeps every outcome
    assert t.outcomes[-1]["rolls"] == []


@rule("PF-STRUCT-07", "PF-STRUCT-05", "PF-STRUCT-04")
def test_a_wall_square_with_a_break_dc_breaks_without_a_breach(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    wall = structure(kind="wall", material="iron", stat_overrides={"break_dc": 20})
    setup(t, creature("ogre", str_mod=5), wall)
    result = applied(t, {"type": "break", "structure_id": "g", "by": "ogre", "dice": {"check": [15]}})
    assert (result["dc"], result["success"], result["structure_after"]) == (
        20,
        True,
        {"broken": True, "breached": False, "hardness": 5},
    )
    assert find(t.state(), "structures", "g")["hp"] == 90


@rule("PF-STRUCT-07", "PF-STRUCT-02")
def test_a_building_with_a_break_dc_is_breached_too(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(t, creature("ogre", str_mod=5), structure(kind="building", stat_overrides={"break_dc": 20}))
    result = applied(t, {"type": "break", "structure_id": "g", "by": "ogre", "dice": {"check": [15]}})
    assert result["structure_after"] == {"broken": True, "breached": True, "hardness": 2}


@rule("PF-DISABLE-02", "PF-STRUCT-07")
def test_a_sabotaged_ram_fails_minutes_after_its_break(rules_table: TableFactory) -> None:
    rogue = creature("rogue", skills={"disable_device": {"ranks": 4, "modifier": 10}})
    t = battering(rules_table, rogue)
    sabotage = {"type": "disable", "engine_id": "ram", "by": "rogue", "mode": "sabotage"}
    applied(t, {**sabotage, "dice": {"disable_rounds": [1, 1], "check": [10]}})
    applied(t, advance(2))
    outcome = t.send({**smash(4), "dice": {"check": [4], "sabotage_minutes": [3]}})
    assert outcome["result"]["sabotage"] == {"minutes": 3, "disabled_at_round": 33}
    assert [r["slot"] for r in outcome["rolls"]] == ["check", "sabotage_minutes"]


@rule("PF-DEF-05", "PF-STRUCT-07")
def test_a_broken_ram_breaks_as_well_as_an_intact_one(rules_table: TableFactory) -> None:
    result = applied(battering(rules_table, state={"broken": True}), smash(4))
    assert ("broken" in labels(result["check"]), result["check"]["total"]) == (False, 35)


# --- refusals, in §3.18 order -------------------------------------------------------------------------


@rule("PF-STRUCT-07")
def test_a_break_names_a_ram_or_a_creature(rules_table: TableFactory) -> None:
    t = battering(rules_table)
    assert rejected(t, {"type": "break", "structure_id": "g"}) == "invalid_field"
    assert rejected(t, smash(4, by="brute")) == "invalid_field"
    assert rejected(t, smash(take_10=True)) == "invalid_field"
    alone = {"type": "break", "structure_id": "g", "by": "brute", "dice": {"check": [4]}}
    assert rejected(t, {**alone, "charging": False}) == "invalid_field"


@rule("PF-STRUCT-05", "PF-STRUCT-07")
def test_destroyed_structures_and_structures_without_a_dc(rules_table: TableFactory) -> None:
    t = battering(
        rules_table,
        structure("gone", state={"hp": 0}),
        structure("wall", kind="wall", material="iron"),
    )
    assert rejected(t, smash(structure_id="gone")) == "structure_destroyed"
    assert rejected(t, smash(structure_id="wall")) == "no_break_dc"


@rule("PF-STRUCT-07", "PF-CREW-03", "PF-DEF-06")
def test_the_ram_passes_the_engine_checks_then_must_be_a_ram(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        structure(),
        engine("ram", "ram_huge"),
        engine("wreck", "ram_huge", state={"hp": 0}),
        engine("lb", "ballista_light"),
        creature("a"),
        crew("lb", "a"),
    )
    assert rejected(t, smash(engine_id="wreck")) == "engine_destroyed"
    assert rejected(t, smash()) == "no_crew"
    assert rejected(t, smash(engine_id="lb")) == "not_a_ram"


@rule("PF-ASSAULT-03")
def test_every_crew_member_must_have_its_full_round(rules_table: TableFactory) -> None:
    t = battering(rules_table)
    applied(t, {"type": "break", "structure_id": "g", "by": "r5", "dice": {"check": [1]}})
    assert rejected(t, smash(4)) == "action_unavailable"
