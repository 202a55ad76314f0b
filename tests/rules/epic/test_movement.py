"""`move`, and what stops a passenger or a climber from moving: EP-MOVE-01..04, EP-HOLD-03, EP-GATE-07,
EP-WARENGINE-02, EP-VEHICLE-01/02."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.epic.given import (
    INSIDE,
    OUTSIDE,
    advance,
    applied,
    at_foot,
    climb,
    embarked,
    gate_order,
    move,
    on,
    order,
    rejected,
    section,
    stand,
)

rule = pytest.mark.rule


def go(stand_id: str, to: dict[str, Any], distance_cm: int, **fields: Any) -> dict[str, Any]:
    return {"type": "move", "stand_id": stand_id, "to": to, "distance_cm": distance_cm, **fields}


@rule("EP-MOVE-01")
def test_charge_doubles_speed_advance_keeps_it_and_a_move_spends_the_declared_distance(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic")
    stand(t, "c", speed_cm=15)
    stand(t, "a", speed_cm=15)
    order(t, "c", "charge")
    order(t, "a", "advance")
    assert advance(t)["movement_allowances"] == {"c": 30, "a": 15}
    first = move(t, "c", OUTSIDE, 12)
    assert first == {
        "from": OUTSIDE,
        "to": OUTSIDE,
        "via": None,
        "distance_cm": 12,
        "movement_left_cm": 18,
        "passengers_moved": [],
        "turn": 1,
        "phase": "movement",
        "dice_used": {},
        "unused_dice": {},
    }
    assert rejected(t, go("c", OUTSIDE, 19)) == "insufficient_movement"
    assert move(t, "c", OUTSIDE, 18)["movement_left_cm"] == 0


@rule("EP-MOVE-02")
@pytest.mark.parametrize(
    ("start", "end"),
    [
        (OUTSIDE, at_foot("W1")),
        (at_foot("W1"), OUTSIDE),
        (at_foot("W1"), at_foot("W2")),
        (OUTSIDE, OUTSIDE),
        (INSIDE, INSIDE),
    ],
    ids=["outside to a foot", "a foot to outside", "foot to foot", "outside to outside", "inside to inside"],
)
def test_moves_that_cross_nothing_are_free_for_every_type_and_ignore_via(
    rules_table: TableFactory, start: dict[str, Any], end: dict[str, Any]
) -> None:
    t = rules_table("epic")
    section(t, "W1")
    section(t, "W2")
    for stand_type in ("infantry", "vehicle", "war_engine", "transport_war_engine"):
        stand(t, stand_type, stand_type, location=start)
        order(t, stand_type, "advance")
    advance(t)
    for stand_type in ("infantry", "vehicle", "war_engine", "transport_war_engine"):
        assert move(t, stand_type, end, 1, via="W1")["via"] is None


@rule("EP-MOVE-02", "EP-GATE-07", "EP-WARENGINE-02", "EP-VEHICLE-01", "EP-VEHICLE-02", "EP-FORT-07")
@pytest.mark.parametrize(
    ("stand_type", "via", "reason"),
    [
        ("infantry", "W1", "must_climb"),
        ("infantry", "Gc", "must_climb"),
        ("infantry", "Go", None),
        ("infantry", "Wx", None),
        ("vehicle", "W1", "blocked_by_fortification"),
        ("vehicle", "Gc", "blocked_by_fortification"),
        ("vehicle", "Go", None),
        ("vehicle", "Wx", None),
        ("war_engine", "Go", "blocked_by_fortification"),
        ("war_engine", "Wx", None),
        ("transport_war_engine", "Go", "blocked_by_fortification"),
        ("transport_war_engine", "W1", "blocked_by_fortification"),
        ("transport_war_engine", "Wx", None),
    ],
)
def test_crossing_into_the_fortress_depends_on_the_section_and_the_stand_type(
    rules_table: TableFactory, stand_type: str, via: str, reason: str | None
) -> None:
    t = rules_table("epic")
    section(t, "W1")
    section(t, "Gc", "gate")
    section(t, "Go", "gate", door="open")
    section(t, "Wx", status="destroyed")
    stand(t, "s", stand_type, location=at_foot("W1"))
    order(t, "s", "advance")
    gate_order(t, "Gc", "first_fire")
    gate_order(t, "Go", "first_fire")
    advance(t)
    outcome = t.send(go("s", INSIDE, 2, via=via))
    assert outcome["reason"] == reason
    if reason is None:
        assert (outcome["result"]["via"], outcome["result"]["to"]) == (via, INSIDE)


@rule("EP-MOVE-02")
def test_leaving_the_fortress_also_crosses_and_needs_a_via(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "W1")
    section(t, "Wx", status="destroyed")
    stand(t, "s", location=INSIDE)
    order(t, "s", "charge")
    advance(t)
    assert rejected(t, go("s", OUTSIDE, 2)) == "invalid_field"
    assert rejected(t, go("s", at_foot("W1"), 2, via="W1")) == "must_climb"
    assert move(t, "s", at_foot("W1"), 2, via="Wx")["to"] == at_foot("W1")


@rule("EP-MOVE-02", "EP-HOLD-03", "EP-HOLD-01")
def test_getting_down_from_a_section_needs_no_climb_and_the_section_stays_held_while_a_stand_remains(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic", {"default_section_capacity": 2})
    section(t, "W1")
    stand(t, "s1", location=on("W1"))
    stand(t, "s2", location=on("W1"))
    stand(t, "s3", location=at_foot("W1"))
    orders = {"s1": "advance", "s2": "advance", "s3": "advance"}
    for stand_id, given in orders.items():
        order(t, stand_id, given)
    advance(t)
    assert move(t, "s1", INSIDE, 1)["from"] == on("W1")
    held = climb(t, "s3", "W1")
    assert (held["automatic_reason"], held["result"]) == ("held", "foothold")
    assert move(t, "s2", at_foot("W1"), 1)["to"] == at_foot("W1")
    assert rejected(t, go("s2", on("W1"), 0)) == "must_climb"
    assert rejected(t, go("s3", INSIDE, 0)) == "climbed_this_turn"


@rule("EP-MOVE-03")
def test_charge_movers_first_counts_advance_movers_of_either_side_and_advance_gates(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic")
    section(t, "G1", "gate")
    stand(t, "att", side="attacker")
    stand(t, "dfd", side="defender")
    order(t, "att", "charge")
    order(t, "dfd", "charge")
    gate_order(t, "G1", "advance")
    advance(t)
    move(t, "att", OUTSIDE, 1)
    applied(t, {"type": "operate_gate", "gate_id": "G1", "action": "open"})
    assert rejected(t, go("dfd", OUTSIDE, 1)) == "charge_movers_first"
    assert rejected(t, go("att", OUTSIDE, 1)) == "charge_movers_first"


@rule("EP-MOVE-03")
def test_a_rejected_advance_move_does_not_close_the_charge_window(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    stand(t, "adv")
    stand(t, "chg")
    order(t, "adv", "advance")
    order(t, "chg", "charge")
    advance(t)
    assert rejected(t, go("adv", OUTSIDE, 11)) == "insufficient_movement"
    assert move(t, "chg", OUTSIDE, 1)["movement_left_cm"] == 19


@rule("EP-MOVE-03")
def test_the_charge_window_opens_again_next_turn(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    stand(t, "adv")
    stand(t, "chg")
    order(t, "adv", "advance")
    advance(t)
    move(t, "adv", OUTSIDE, 1)
    for _ in range(5):
        advance(t)
    order(t, "chg", "charge")
    advance(t)
    assert move(t, "chg", OUTSIDE, 1)["movement_left_cm"] == 19


@rule("EP-MOVE-01", "EP-ORDER-02")
def test_first_fire_and_unordered_stands_cannot_move(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    stand(t, "f")
    stand(t, "n")
    order(t, "f", "first_fire")
    advance(t)
    assert rejected(t, go("f", OUTSIDE, 0)) == "order_forbids_move"
    assert rejected(t, go("n", OUTSIDE, 0)) == "order_forbids_move"


def siege_tower(rules_table: TableFactory) -> Table:
    t = rules_table("epic")
    section(t, "W1")
    stand(t, "goff", side="defender", location=on("W1"))
    stand(t, "lev", "transport_war_engine", capacity=2, location=at_foot("W1"))
    stand(t, "p1", location=embarked("lev"))
    stand(t, "p2", location=embarked("lev"))
    order(t, "lev", "charge")
    advance(t)
    return t


@rule("EP-MOVE-04", "EP-CLIMB-02")
def test_a_transport_carries_its_passengers_but_not_while_one_has_a_pending_climb(
    rules_table: TableFactory,
) -> None:
    t = siege_tower(rules_table)
    carried = move(t, "lev", OUTSIDE, 3)
    assert carried["passengers_moved"] == ["p1", "p2"]
    move(t, "lev", at_foot("W1"), 3)
    climb(t, "p1", "W1")
    assert rejected(t, go("lev", OUTSIDE, 1)) == "already_climbing"
    assert rejected(t, {"type": "disembark", "stand_id": "p1"}) == "already_climbing"
    assert [s["movement_left_cm"] for s in t.state()["stands"][2:]] == [15, 20]


@rule("EP-MOVE-02", "EP-CLIMB-02")
def test_embarked_stands_and_pending_climbers_cannot_move(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "W1")
    stand(t, "goff", side="defender", location=on("W1"))
    stand(t, "lev", "transport_war_engine", capacity=2, location=at_foot("W1"))
    stand(t, "p1", location=embarked("lev"))
    stand(t, "csm", location=at_foot("W1"))
    order(t, "lev", "charge")
    order(t, "csm", "charge")
    advance(t)
    assert rejected(t, go("p1", OUTSIDE, 1)) == "embarked"
    climb(t, "csm", "W1")
    assert rejected(t, go("csm", OUTSIDE, 1)) == "already_climbing"
    assert rejected(t, {"type": "embark", "stand_id": "csm", "transport_id": "lev"}) == "already_climbing"
    assert rejected(t, {"type": "climb", "stand_id": "csm", "section_id": "W1"}) == "already_climbing"
