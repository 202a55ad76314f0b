"""Raising an assault bridge (§3.20, PF-ASSAULT-05)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    REPAIRER,
    advance,
    applied,
    busy_repairing,
    creature,
    crew,
    engine,
    find,
    rejected,
    setup,
)

rule = pytest.mark.rule
MEDIUM = ("m1", "m2", "m3", "m4")


def lift(*contributors: str, bridge: str = "br") -> dict[str, Any]:
    return {"type": "raise_bridge", "engine_id": bridge, "contributors": list(contributors)}


def site(rules_table: TableFactory, catalog_id: str = "bridge_assault_huge", *more: dict[str, Any]) -> Table:
    """EX-PF-38: a Huge bridge (30 ft, 6 units); m1…m5 Medium, `hh` Huge, `gg` Gargantuan, `tiny` Tiny."""
    t = rules_table("pathfinder")
    setup(
        t,
        engine("br", catalog_id),
        *(creature(m) for m in (*MEDIUM, "m5")),
        creature("hh", size="H"),
        creature("gg", size="G"),
        creature("tiny", size="T"),
        *more,
    )
    return t


@rule("PF-ASSAULT-05", "PF-TIME-02", "PF-GEN-05")
def test_four_medium_creatures_add_a_quarter_each_to_a_huge_bridge(rules_table: TableFactory) -> None:
    t = site(rules_table)
    assert applied(t, lift(*MEDIUM)) == {
        "units_added": 1,
        "progress": 1,
        "requirement": 6,
        "raised": False,
        "round": 1,
        "unused_dice": [],
    }
    assert rejected(t, lift("m5")) == "too_many_contributors"
    for _ in range(5):
        applied(t, advance())
        last = applied(t, lift(*MEDIUM))
    assert (last["progress"], last["raised"], last["round"]) == (6, True, 6)
    assert find(t.state(), "engines", "br")["bridge"]["raised"] is True
    assert rejected(t, lift("m5")) == "bridge_already_raised"


@rule("PF-ASSAULT-05")
def test_creatures_as_large_as_the_bridge_add_a_full_unit(rules_table: TableFactory) -> None:
    t = site(rules_table)
    for round_ in (1, 2, 3):
        result = applied(t, lift("hh", "gg"))
        assert (result["units_added"], result["progress"], result["round"]) == (2, 2 * round_, round_)
        applied(t, advance())
    assert result["raised"] is True


@rule("PF-ASSAULT-05", "PF-GEN-05")
def test_fractions_stay_exact(rules_table: TableFactory) -> None:
    t = site(rules_table, "bridge_assault_colossal")
    # Colossal (index 8): Tiny (2) adds 1/64, Medium (4) 1/16, Gargantuan (7) 1/2
    result = applied(t, lift("tiny", "m1", "gg"))
    assert (result["units_added"], result["progress"], result["requirement"]) == (0.578125, 0.578125, 12)
    applied(t, advance())
    assert applied(t, lift("hh"))["progress"] == 0.828125


@rule("PF-ASSAULT-05")
@pytest.mark.parametrize(
    ("catalog_id", "requirement"), [("bridge_assault_large", 4), ("bridge_assault_gargantuan", 8)]
)
def test_the_requirement_is_the_length_in_squares(
    rules_table: TableFactory, catalog_id: str, requirement: int
) -> None:
    assert applied(site(rules_table, catalog_id), lift("m1"))["requirement"] == requirement


@rule("PF-ASSAULT-05", "PF-TIME-02")
def test_four_a_round_counting_earlier_commands_then_the_count_restarts(rules_table: TableFactory) -> None:
    t = site(rules_table)
    applied(t, lift("m1", "m2", "m3"))
    assert rejected(t, lift("m4", "m5")) == "too_many_contributors"
    assert applied(t, lift("m4"))["progress"] == 1
    applied(t, advance())
    assert applied(t, lift("m1", "m2", "m3", "m4"))["progress"] == 2


@rule("PF-ASSAULT-05", "PF-TIME-02")
def test_a_lone_helper_s_count_restarts_with_the_round(rules_table: TableFactory) -> None:
    t = site(rules_table)
    applied(t, lift("m1"))
    applied(t, advance())
    assert find(t.state(), "engines", "br")["bridge"]["contributors_this_round"] == 0
    assert applied(t, lift("m2", "m3", "m4", "m5"))["progress"] == 1.25


@rule("PF-ASSAULT-05", "PF-DEF-06")
def test_refusals_in_order(rules_table: TableFactory) -> None:
    t = site(
        rules_table,
        "bridge_assault_huge",
        engine("gone", "bridge_assault_huge", state={"hp": 0}),
        engine("ram", "ram_large"),
        creature("down", hp=0),
    )
    assert rejected(t, lift("m1", bridge="gone")) == "engine_destroyed"
    assert rejected(t, lift("m1", bridge="ram")) == "not_a_bridge"
    assert rejected(t, lift("down")) == "creature_down"
    assert rejected(t, lift()) == "invalid_field"
    assert rejected(t, lift("m1", "m1")) == "invalid_field"
    applied(t, lift("m1"))
    assert rejected(t, lift("m1")) == "action_unavailable"


@rule("PF-ASSAULT-05", "PF-TIME-02")
def test_raising_is_a_full_round_action_so_a_helper_that_moved_an_engine_cannot_help(
    rules_table: TableFactory,
) -> None:
    t = site(rules_table, "bridge_assault_huge", engine("lc", "catapult_light", x=3), crew("lc", "m1", "m2"))
    applied(t, {"type": "move_engine", "engine_id": "lc", "to": {"x": 3, "y": 1}})
    assert find(t.state(), "creatures", "m1")["actions"] == {"standard": True, "move": False}
    assert rejected(t, lift("m1")) == "action_unavailable"


@rule("PF-ASSAULT-05", "PF-TIME-04")
def test_a_helper_busy_with_a_repair_cannot_help(rules_table: TableFactory) -> None:
    t = site(rules_table, "bridge_assault_huge", creature("smith", **REPAIRER))
    busy_repairing(t, "smith")
    assert rejected(t, lift("smith")) == "creature_busy"
