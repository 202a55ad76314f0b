"""Firedrake and firewyrm gouts (PF-ENGINE-03, PF-MISHAP-03): an operation check with no modifiers, one
damage roll for every listed creature, each saving Reflex (DC 15 firedrake, 20 firewyrm) for half, floored."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import PROFICIENT, aimed_engine, creature, crew, fire, setup, square


def drake(rules_table: TableFactory, catalog_id: str = "firedrake", **fields: Any) -> Table:
    """`fd` at (0,0) aimed along the line north, crew fl, f2, f3; v1 (ref +1) and v2 (ref +1), 30 hp each."""
    t = rules_table("pathfinder")
    setup(
        t,
        creature("fl", **PROFICIENT),
        creature("f2"),
        creature("f3"),
        aimed_engine("fd", catalog_id, square(0, 10), **fields),
        crew("fd", "fl", "f2", "f3"),
        creature("v1", hp=30, saves={"ref": 1}, y=4),
        creature("v2", hp=30, saves={"ref": 1}, y=6),
    )
    return t


def gout(t: Table, dice: dict[str, Any]) -> dict[str, Any]:
    outcome = t.send(fire("fd", dice, area={"shape": "line", "target_ids": ["v2", "v1"]}))
    assert outcome["status"] == "applied", outcome["reason"]
    return outcome


@pytest.mark.rule("PF-ENGINE-03", "PF-MISHAP-03", "PF-GEN-05", "PF-GEN-09")
def test_a_firedrake_gout_halves_an_odd_damage_down_for_a_save_of_exactly_fifteen(
    rules_table: TableFactory,
) -> None:
    """13 fire damage; v1 saves 14 + 1 = 15 ≥ 15 for floor(13 / 2) = 6, v2 fails 13 + 1 = 14 and burns;
    saves in creation order (v1 first) though v2 is listed first."""
    outcome = gout(drake(rules_table), {"operation": [7], "damage": [1, 2, 3, 4, 2, 1], "save": [14, 13]})
    shot = outcome["result"]
    assert shot["roll"] == {
        "slot": "operation",
        "natural": 7,
        "modifiers": [],
        "total": 7,
        "target_number": None,
        "success": None,
    }
    assert outcome["rolls"][0] == {"slot": "operation", "die": "d20", "value": 7, "source": "client"}
    assert (shot["kind"], shot["hit"], shot["mishap"], shot["collapse"]) == ("area", True, False, [])
    assert shot["damage"] == {"dice": [1, 2, 3, 4, 2, 1], "static": 0, "total": 13, "base": 13}
    assert [
        (e["entity_id"], e["save"]["total"], e["save"]["success"], e["damage_after_save"])
        for e in shot["effects"]
    ] == [("v1", 15, True, 6), ("v2", 14, False, 13)]
    assert [(e["hp_after"], e["conditions_added"]) for e in shot["effects"]] == [(24, []), (17, ["on_fire"])]


@pytest.mark.rule("PF-ENGINE-03")
def test_a_firewyrm_gout_needs_a_reflex_twenty(rules_table: TableFactory) -> None:
    t = drake(rules_table, "firewyrm", assembled=True)
    shot = gout(t, {"operation": [2], "damage": [3] * 6, "save": [19, 18]})["result"]
    assert [(e["save"]["dc"], e["save"]["total"], e["damage_after_save"]) for e in shot["effects"]] == [
        (20, 20, 9),
        (20, 19, 18),
    ]


@pytest.mark.rule("PF-MISHAP-03", "PF-ENGINE-04")
def test_a_gout_stopped_by_a_mishap_does_not_hit(rules_table: TableFactory) -> None:
    shot = gout(drake(rules_table), {"operation": [1]})["result"]
    assert (shot["mishap"], shot["hit"], shot["damage"], shot["effects"]) == (True, False, None, [])
