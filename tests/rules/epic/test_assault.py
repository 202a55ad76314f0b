"""`assault`: EP-ASSAULT-01..06, EP-BEHIND-02/03, EP-HOLD-02, EP-TOWER-05, EP-FORT-08, EP-WARENGINE-01/03."""

from __future__ import annotations

from typing import Any, Literal

import pytest

from tests.conftest import TableFactory
from tests.harness import RulesTable, Table
from tests.rules.epic.given import (
    INSIDE,
    advance,
    advance_to,
    assault,
    at_foot,
    climb,
    embarked,
    fire_at_stand,
    gate_order,
    on,
    order,
    rejected,
    section,
    stand,
    weapon,
)

rule = pytest.mark.rule


def fight_ready(
    rules_table: TableFactory,
    kind: str = "wall",
    approach_from: dict[str, Any] | Literal["tower"] | None = None,
    gate: str | None = None,
    defenders: tuple[str, ...] = ("goff",),
    **options: Any,
) -> Table:
    """Section S with defenders on it; `csm` (caf 3) has a pending climb on S, in close combat."""
    t = rules_table("epic", options)
    section(t, "S", kind, capacity=max(1, len(defenders)))
    for defender in defenders:
        stand(t, defender, side="defender", caf=2, location=on("S"))
    if approach_from == "tower":
        stand(t, "lev", "transport_war_engine", capacity=1, location=at_foot("S"))
        stand(t, "csm", caf=3, location=embarked("lev"))
        order(t, "lev", "charge")
    else:
        stand(t, "csm", caf=3, location=approach_from or at_foot("S"))
        order(t, "csm", "charge")
    if gate:
        gate_order(t, "S", gate)
    advance(t)
    climb(t, "csm", "S")
    advance_to(t, "close_combat")
    return t


def made(stand_id: str, section_id: str, kind: str, verdict: str) -> list[dict[str, Any]]:
    """The change an assault records: its kind and verdict as its result tells them."""
    return [
        {
            "event": "AssaultMade",
            "stand_id": stand_id,
            "section_id": section_id,
            "kind": kind,
            "result": verdict,
        }
    ]


def foothold(stand_id: str, section_id: str) -> list[dict[str, Any]]:
    """The change of a stand taking the section (EP-HOLD-01)."""
    return [{"event": "FootholdTaken", "stand_id": stand_id, "section_id": section_id}]


@rule("EP-ASSAULT-02", "EP-FORT-03", "EP-HOLD-02")
def test_a_first_fire_gate_adds_two_to_its_defender_from_outside(rules_table: TableFactory) -> None:
    t = fight_ready(rules_table, "gate", gate="first_fire")
    result = assault(t, "csm", "S", attacker=[6, 6], defender=[2, 2])
    assert result["defender"]["modifiers"] == [
        {"label": "caf", "value": 2},
        {"label": "fort_va", "value": 4},
        {"label": "tir_appuye", "value": 2},
    ]
    assert (result["defender"]["total"], result["attacker"]["total"], result["result"]) == (
        12,
        15,
        "attacker_wins",
    )


@rule("EP-BEHIND-02", "EP-BEHIND-03")
@pytest.mark.parametrize(
    ("kind", "gate", "rounding", "half"),
    [
        ("blockhouse", None, "ceil", 4),
        ("blockhouse", None, "floor", 3),
        ("tower", None, "floor", 4),
        ("gate", "first_fire", "ceil", 3),
        ("gate", "advance", "floor", 2),
    ],
)
def test_from_behind_the_defender_adds_half_the_effective_va(
    rules_table: TableFactory, kind: str, gate: str | None, rounding: str, half: int
) -> None:
    t = fight_ready(rules_table, kind, approach_from=INSIDE, gate=gate, half_va_rounding=rounding)
    result = assault(t, "csm", "S", attacker=[1, 1], defender=[1, 1])
    assert result["approach"] == "behind"
    assert result["defender"]["modifiers"] == [
        {"label": "caf", "value": 2},
        {"label": "fort_va_half", "value": half},
    ]
    assert result["defender"]["total"] == 4 + half


@rule("EP-TOWER-05", "EP-ASSAULT-03")
def test_a_passenger_that_loses_is_destroyed_inside_its_tower(rules_table: TableFactory) -> None:
    t = fight_ready(rules_table, approach_from="tower")
    result = assault(t, "csm", "S", attacker=[1, 1], defender=[3, 3])
    assert (result["result"], result["destroyed_stands"], result["attacker_location"]) == (
        "defender_wins",
        ["csm"],
        None,
    )


@rule("EP-ASSAULT-03", "EP-TOWER-05")
def test_a_tie_under_both_destroyed_from_a_tower_destroys_both(rules_table: TableFactory) -> None:
    t = fight_ready(rules_table, approach_from="tower", tie_rule="both_destroyed")
    result = assault(t, "csm", "S", attacker=[1, 1], defender=[1, 2])
    assert (result["result"], result["destroyed_stands"]) == ("tie", ["goff", "csm"])


@rule("EP-ASSAULT-05", "EP-ASSAULT-03", "EP-TOWER-05")
def test_with_several_occupants_the_defender_is_chosen_and_the_winner_moves_on_only_when_none_is_left(
    rules_table: TableFactory,
) -> None:
    t = fight_ready(rules_table, approach_from="tower", defenders=("g1", "g2"))
    command = {
        "type": "assault",
        "stand_id": "csm",
        "section_id": "S",
        "dice": {"attacker": [6, 6], "defender": [1, 1]},
    }
    assert rejected(t, command) == "defender_choice_required"
    stand(t, "lost", side="defender")
    assert rejected(t, {**command, "defender_id": "lost"}) == "not_a_defender"
    assert rejected(t, {**command, "defender_id": "lev"}) == "not_a_defender"
    outcome = t.send({**command, "defender_id": "g2"})
    result = outcome["result"]
    assert (result["defender"]["stand_id"], result["result"], result["destroyed_stands"]) == (
        "g2",
        "attacker_wins",
        ["g2"],
    )
    assert result["attacker_location"] == embarked("lev")


@rule("EP-ASSAULT-04")
def test_the_same_defender_may_fight_any_number_of_attackers_one_at_a_time(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "S")
    stand(t, "goff", side="defender", caf=2, location=on("S"))
    for n in range(3):
        stand(t, f"c{n}", caf=3, location=at_foot("S"))
        order(t, f"c{n}", "charge")
    advance(t)
    for n in range(3):
        climb(t, f"c{n}", "S")
    advance_to(t, "close_combat")
    verdicts = [assault(t, f"c{n}", "S", attacker=[1, 1], defender=[1, 1])["result"] for n in range(3)]
    assert verdicts == ["defender_wins"] * 3  # 5 against 10 every time: no outnumbering bonus


@rule("EP-ASSAULT-06", "EP-CLIMB-05")
def test_a_defended_climb_whose_defender_was_shot_becomes_an_undefended_climb(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic")
    section(t, "S")
    stand(t, "goff", side="defender", caf=2, location=on("S"))
    stand(t, "csm", caf=3, location=at_foot("S"))
    stand(t, "gun")
    order(t, "csm", "charge")
    order(t, "gun", "first_fire")
    advance(t)
    assert climb(t, "csm", "S")["defended"] is True
    advance(t)
    t.send(fire_at_stand("gun", "goff", weapon("las", 3), to_hit=[6]))
    advance(t)
    result = assault(t, "csm", "S", attacker=[2, 2], defender=[6, 6])
    assert (result["kind"], result["attacker"]["total"], result["target"], result["result"]) == (
        "undefended_climb",
        7,
        6,
        "success",
    )
    assert (result["defender"], result["unused_dice"]) == (None, {"defender": [6, 6]})
    assert isinstance(t, RulesTable)  # only the in-process table keeps every outcome
    assert t.outcomes[-1]["changes"] == made("csm", "S", "undefended_climb", "success") + foothold("csm", "S")


@rule("EP-ASSAULT-06", "EP-BEHIND-01")
def test_a_climb_from_behind_whose_defender_was_shot_is_automatic(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "S")
    stand(t, "goff", side="defender", caf=2, location=on("S"))
    stand(t, "csm", caf=3, location=INSIDE)
    stand(t, "gun")
    order(t, "csm", "charge")
    order(t, "gun", "first_fire")
    advance(t)
    climb(t, "csm", "S")
    advance(t)
    t.send(fire_at_stand("gun", "goff", weapon("las", 3), to_hit=[6]))
    advance(t)
    result = assault(t, "csm", "S")
    assert (result["kind"], result["approach"], result["result"], result["attacker"]) == (
        "automatic",
        "behind",
        "automatic",
        None,
    )
    assert (result["attacker_location"], result["dice_used"]) == (on("S"), {})
    assert isinstance(t, RulesTable)  # only the in-process table keeps every outcome
    assert t.outcomes[-1]["changes"] == made("csm", "S", "automatic", "automatic") + foothold("csm", "S")


@rule("EP-ASSAULT-06", "EP-HOLD-01")
def test_a_climb_onto_a_section_emptied_from_behind_resolves_automatically(rules_table: TableFactory) -> None:
    t = rules_table("epic", {"default_section_capacity": 2})
    section(t, "S")
    stand(t, "goff", side="defender", caf=2, location=on("S"))
    stand(t, "a1", caf=3, location=INSIDE)
    stand(t, "a2", caf=3, location=at_foot("S"))
    order(t, "a1", "charge")
    order(t, "a2", "charge")
    advance(t)
    climb(t, "a1", "S")
    climb(t, "a2", "S")
    advance_to(t, "close_combat")
    assault(t, "a1", "S", attacker=[6, 6], defender=[1, 1])
    result = assault(t, "a2", "S", defender=[6, 6])
    assert (result["kind"], result["result"], result["attacker_location"]) == (
        "automatic",
        "automatic",
        on("S"),
    )
    assert result["unused_dice"] == {"defender": [6, 6]}
    assert isinstance(t, RulesTable)  # only the in-process table keeps every outcome
    assert t.outcomes[-1]["changes"] == made("a2", "S", "automatic", "automatic") + foothold("a2", "S")


@rule("EP-ASSAULT-01", "EP-CLIMB-04")
def test_assault_needs_a_pending_climb_on_that_very_section(rules_table: TableFactory) -> None:
    t = fight_ready(rules_table)
    section(t, "T")
    assert rejected(t, {"type": "assault", "stand_id": "csm", "section_id": "T"}) == "no_pending_climb"


@rule("EP-FORT-07", "EP-CLIMB-01")
def test_a_pending_climb_on_a_section_destroyed_meanwhile_cannot_be_resolved(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic")
    section(t, "S")
    stand(t, "goff", side="defender", caf=2, location=on("S"))
    stand(t, "csm", caf=3, location=at_foot("S"))
    stand(t, "titan", "war_engine", caf=12, has_cc_weapon=True, location=at_foot("S"))
    order(t, "csm", "charge")
    order(t, "titan", "charge")
    advance(t)
    climb(t, "csm", "S")
    advance_to(t, "close_combat")
    assert assault(t, "titan", "S", attacker=[1, 1])["section_destroyed"] is True
    assert rejected(t, {"type": "assault", "stand_id": "csm", "section_id": "S"}) == "section_destroyed"


def titan_at_the_gate(rules_table: TableFactory, gate: str = "advance", **options: Any) -> Table:
    t = rules_table("epic", options)
    section(t, "G", "gate", capacity=2)
    stand(t, "g1", side="defender", caf=2, location=on("G"))
    stand(t, "g2", side="defender", caf=2, location=on("G"))
    stand(t, "titan", "war_engine", caf=1, has_cc_weapon=True, location=at_foot("G"))
    order(t, "titan", "charge")
    gate_order(t, "G", gate)
    advance_to(t, "close_combat")
    return t


@rule("EP-WARENGINE-01", "EP-WARENGINE-03", "EP-FORT-08", "EP-GEN-04")
def test_a_war_engine_must_beat_the_full_effective_va_strictly_and_ignores_the_defenders(
    rules_table: TableFactory,
) -> None:
    t = titan_at_the_gate(rules_table, gate="first_fire")
    result = assault(t, "titan", "G", attacker=[2, 3])
    assert result == {
        "kind": "war_engine",
        "attacker": {"dice": [2, 3], "modifiers": [{"label": "caf", "value": 1}], "total": 6},
        "defender": None,
        "target": 6,
        "approach": None,
        "result": "failure",
        "destroyed_stands": [],
        "section_destroyed": False,
        "attacker_location": at_foot("G"),
        "turn": 1,
        "phase": "close_combat",
        "dice_used": {"attacker": [2, 3]},
        "unused_dice": {},
    }
    assert (
        rejected(t, {"type": "assault", "stand_id": "titan", "section_id": "G"})
        == "already_assaulted_this_turn"
    )


@rule("EP-WARENGINE-03", "EP-FORT-07")
def test_occupants_stay_in_the_breach_by_default(rules_table: TableFactory) -> None:
    t = titan_at_the_gate(rules_table)
    result = assault(t, "titan", "G", attacker=[2, 2])
    assert (result["section_destroyed"], result["destroyed_stands"]) == (True, [])
    assert [s["location"] for s in t.state()["stands"][:2]] == [on("G"), on("G")]


@rule("EP-WARENGINE-03", "EP-FORT-07")
def test_occupants_fall_with_the_section_under_the_option(rules_table: TableFactory) -> None:
    t = titan_at_the_gate(rules_table, occupants_destroyed_with_section=True)
    result = assault(t, "titan", "G", attacker=[2, 2])
    assert (result["section_destroyed"], result["destroyed_stands"]) == (True, ["g1", "g2"])


@rule("EP-GEN-02", "EP-HOLD-02", "EP-BEHIND-03")
def test_whoever_occupies_a_section_defends_it_with_its_bonus(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "T1", "tower")
    stand(t, "csm", caf=3, location=on("T1"))
    stand(t, "boyz", side="defender", caf=2, location=INSIDE)
    stand(t, "nobz", side="defender", caf=2, location=at_foot("T1"))
    order(t, "boyz", "charge")
    order(t, "nobz", "charge")
    advance(t)
    assert climb(t, "boyz", "T1")["defended"] is True
    assert climb(t, "nobz", "T1")["approach"] == "outside"
    advance_to(t, "close_combat")
    behind = assault(t, "boyz", "T1", attacker=[1, 1], defender=[1, 1])
    assert behind["defender"]["modifiers"] == [
        {"label": "caf", "value": 3},
        {"label": "fort_va_half", "value": 4},
    ]
    outside = assault(t, "nobz", "T1", attacker=[6, 6], defender=[1, 1])
    assert outside["defender"]["modifiers"] == [
        {"label": "caf", "value": 3},
        {"label": "fort_va", "value": 8},
    ]
    assert (outside["attacker"]["total"], outside["defender"]["total"], outside["result"]) == (
        14,
        13,
        "attacker_wins",
    )
    assert (outside["destroyed_stands"], outside["attacker_location"]) == (["csm"], on("T1"))
