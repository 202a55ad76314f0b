"""Setup commands: `add_fortification` (EP-FORT-01/02, EP-GATE-01) and `add_stand` (EP-FORT-04, EP-GEN-06)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.rules.epic.given import embarked, on, rejected, section, stand

rule = pytest.mark.rule


@rule("EP-FORT-01")
@pytest.mark.parametrize(
    ("kind", "fort_va", "save", "malus"),
    [("wall", 6, 3, 3), ("tower", 8, 2, 3), ("gate", 4, 2, 1), ("blockhouse", 7, 2, 2)],
)
def test_each_kind_of_section_reports_its_table_statistics(
    rules_table: TableFactory, kind: str, fort_va: int, save: int, malus: int
) -> None:
    added = section(rules_table("epic"), "S", kind)["section"]
    assert (added["fort_va"], added["save"], added["malus"]) == (fort_va, save, malus)


@rule("EP-FORT-02", "EP-GATE-01")
def test_a_gate_gets_its_defaults_and_the_battle_default_capacity(rules_table: TableFactory) -> None:
    added = section(rules_table("epic"), "G1", "gate")["section"]
    assert added == {
        "id": "G1",
        "kind": "gate",
        "capacity": 1,
        "adjacent": [],
        "status": "intact",
        "consecutive_failed_saves": 0,
        "door": "closed",
        "jammed": False,
        "order": None,
        "opened_this_turn": False,
        "closed_this_turn": False,
        "operations_this_turn": 0,
        "repair_tried_this_turn": False,
        "fort_va": 4,
        "save": 2,
        "malus": 1,
    }


@rule("EP-FORT-02")
def test_default_section_capacity_comes_from_the_battle_options(rules_table: TableFactory) -> None:
    t = rules_table("epic", {"default_section_capacity": 3})
    assert section(t, "W1")["section"]["capacity"] == 3
    assert section(t, "W2", capacity=2)["section"]["capacity"] == 2


@rule("EP-FORT-02")
def test_adjacency_is_stored_both_ways(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "W1")
    section(t, "T1", "tower")
    section(t, "W2", adjacent=["W1", "T1"])
    by_id = {s["id"]: s["adjacent"] for s in t.state()["sections"]}
    assert by_id == {"W1": ["W2"], "T1": ["W2"], "W2": ["W1", "T1"]}


@rule("EP-FORT-02")
def test_a_wall_may_start_damaged_or_destroyed(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    added = section(t, "W1", consecutive_failed_saves=1, status="destroyed")["section"]
    assert (added["status"], added["consecutive_failed_saves"], added["door"], added["jammed"]) == (
        "destroyed",
        1,
        None,
        None,
    )


def add(stand_id: str, stand_type: str, location: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "type": "add_stand",
        "id": stand_id,
        "stand_type": stand_type,
        "side": "defender",
        "caf": 2,
        "speed_cm": 10,
        "location": location,
        **fields,
    }


@rule("EP-FORT-04", "EP-GEN-06", "EP-WARENGINE-04")
def test_only_infantry_can_be_placed_on_a_section_and_only_while_there_is_room(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic")
    section(t, "W1")
    section(t, "W2", status="destroyed")
    assert rejected(t, add("tank", "vehicle", on("W1"))) == "not_infantry"
    assert rejected(t, add("titan", "war_engine", on("W1"))) == "not_infantry"
    assert rejected(t, add("ork", "infantry", on("W2"))) == "section_destroyed"
    stand(t, "goff", side="defender", location=on("W1"))
    assert rejected(t, add("ork", "infantry", on("W1"))) == "section_full"
    assert rejected(t, add("tank", "vehicle", on("W2"))) == "not_infantry"  # listed order: type first


@rule("EP-TOWER-01", "EP-GEN-06")
def test_a_stand_can_start_embarked_only_in_a_transport_with_room(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    stand(t, "rhino", "vehicle")
    stand(t, "lev", "transport_war_engine", capacity=1)
    assert rejected(t, add("p1", "infantry", embarked("rhino"))) == "not_a_transport"
    added = stand(t, "p1", location=embarked("lev"))["stand"]
    assert added["location"] == embarked("lev")
    assert rejected(t, add("p2", "infantry", embarked("lev"))) == "transport_full"


@rule("EP-GEN-06", "EP-GEN-05")
def test_a_stand_reports_its_fields_with_defaults(rules_table: TableFactory) -> None:
    added = stand(rules_table("epic"), "csm", caf=3)["stand"]
    assert added == {
        "id": "csm",
        "stand_type": "infantry",
        "side": "attacker",
        "caf": 3,
        "has_cc_weapon": False,
        "capacity": 0,
        "speed_cm": 10,
        "save": None,
        "location": {"kind": "outside"},
        "order": None,
        "movement_left_cm": 0,
        "pending_climb": None,
        "climbed_this_turn": False,
        "assaulted_this_turn": False,
        "fired_weapons": [],
        "destroyed": False,
    }
