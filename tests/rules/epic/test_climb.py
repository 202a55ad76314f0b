"""`climb`: EP-CLIMB-01..08, EP-BEHIND-01, EP-TOWER-02..04, EP-WARENGINE-04, EP-VEHICLE-01."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.epic.given import (
    INSIDE,
    OUTSIDE,
    advance,
    at_foot,
    climb,
    embarked,
    move,
    on,
    order,
    rejected,
    section,
    stand,
)

rule = pytest.mark.rule


def climbing(stand_id: str, section_id: str = "W1") -> dict[str, Any]:
    return {"type": "climb", "stand_id": stand_id, "section_id": section_id}


def walls(rules_table: TableFactory, defended: bool = False, **options: Any) -> Table:
    """W1 (adjacent to W2), W3 apart, Wx destroyed; a Goff on W1 when `defended`."""
    t = rules_table("epic", options)
    section(t, "W2")
    section(t, "W1", adjacent=["W2"])
    section(t, "W3")
    section(t, "Wx", status="destroyed")
    if defended:
        stand(t, "goff", side="defender", caf=2, location=on("W1"))
    return t


@rule("EP-CLIMB-01", "EP-WARENGINE-04", "EP-VEHICLE-01", "EP-FORT-06")
def test_only_infantry_climbs_and_type_is_checked_before_the_section(rules_table: TableFactory) -> None:
    t = walls(rules_table)
    stand(t, "rhino", "vehicle", location=at_foot("Wx"))
    stand(t, "titan", "war_engine", location=at_foot("W1"))
    stand(t, "lev", "transport_war_engine", location=at_foot("W1"))
    for stand_id in ("rhino", "titan", "lev"):
        order(t, stand_id, "charge")
    advance(t)
    assert [rejected(t, climbing(s, "Wx")) for s in ("rhino", "titan", "lev")] == ["not_infantry"] * 3


@rule("EP-CLIMB-01", "EP-FORT-07")
def test_a_destroyed_section_cannot_be_climbed_and_that_comes_before_contact(
    rules_table: TableFactory,
) -> None:
    t = walls(rules_table)
    stand(t, "a", location=OUTSIDE)
    order(t, "a", "charge")
    advance(t)
    assert rejected(t, climbing("a", "Wx")) == "section_destroyed"


@rule("EP-CLIMB-01")
@pytest.mark.parametrize(
    "where",
    [OUTSIDE, at_foot("W3"), on("W3"), on("W1")],
    ids=["outside", "at the foot of another section", "on a section not adjacent", "on the section itself"],
)
def test_a_climber_must_be_in_contact_with_the_section(
    rules_table: TableFactory, where: dict[str, Any]
) -> None:
    t = walls(rules_table)
    stand(t, "a", location=where)
    order(t, "a", "charge")
    advance(t)
    assert rejected(t, climbing("a")) == "not_in_contact"


@rule("EP-CLIMB-01", "EP-TOWER-02")
def test_a_passenger_of_a_transport_that_is_not_at_the_foot_is_not_in_contact(
    rules_table: TableFactory,
) -> None:
    t = walls(rules_table)
    stand(t, "lev", "transport_war_engine", capacity=1, location=at_foot("W3"))
    stand(t, "p", location=embarked("lev"))
    order(t, "lev", "charge")
    advance(t)
    assert rejected(t, climbing("p")) == "not_in_contact"


@rule("EP-TOWER-02")
def test_a_transport_acts_as_a_siege_tower_only_on_charge_orders(rules_table: TableFactory) -> None:
    t = walls(rules_table)
    stand(t, "lev", "transport_war_engine", capacity=1, location=at_foot("W1"))
    stand(t, "p", location=embarked("lev"))
    order(t, "lev", "advance")
    advance(t)
    assert rejected(t, climbing("p")) == "transport_not_on_charge"


@rule("EP-CLIMB-02", "EP-ORDER-02")
def test_climbing_needs_an_order_that_allows_movement(rules_table: TableFactory) -> None:
    t = walls(rules_table)
    stand(t, "ff", location=at_foot("W1"))
    stand(t, "none", location=at_foot("W1"))
    order(t, "ff", "first_fire")
    advance(t)
    assert rejected(t, climbing("ff")) == "order_forbids_move"
    assert rejected(t, climbing("none")) == "order_forbids_move"


@rule("EP-CLIMB-02")
def test_a_climb_costs_five_centimetres_paid_when_declared(rules_table: TableFactory) -> None:
    t = walls(rules_table, defended=True)
    stand(t, "slow", speed_cm=2, location=at_foot("W1"))
    stand(t, "csm", location=at_foot("W1"))
    order(t, "slow", "charge")
    order(t, "csm", "charge")
    advance(t)
    assert rejected(t, climbing("slow")) == "insufficient_movement"
    declared = climb(t, "csm", "W1")
    assert (declared["result"], declared["movement_left_cm"], declared["location"]) == (
        "pending",
        15,
        at_foot("W1"),
    )
    assert t.state()["stands"][2]["pending_climb"] == {"section_id": "W1", "approach": "outside"}


@rule("EP-CLIMB-02", "EP-MOVE-01")
def test_a_stand_with_exactly_five_centimetres_left_may_still_climb(rules_table: TableFactory) -> None:
    t = walls(rules_table, defended=True)
    stand(t, "edge", speed_cm=5)  # charging: 10 cm, 5 of them walked to the wall's foot
    order(t, "edge", "charge")
    advance(t)
    assert move(t, "edge", at_foot("W1"), 5)["movement_left_cm"] == 5
    declared = climb(t, "edge", "W1")
    assert (declared["result"], declared["movement_left_cm"]) == ("pending", 0)


@rule("EP-CLIMB-02")
def test_one_pending_climb_at_a_time(rules_table: TableFactory) -> None:
    t = walls(rules_table, defended=True)
    stand(t, "csm", location=INSIDE)
    order(t, "csm", "charge")
    advance(t)
    climb(t, "csm", "W1")
    assert rejected(t, climbing("csm", "W2")) == "already_climbing"


@rule("EP-CLIMB-08", "EP-CLIMB-03", "EP-BEHIND-01")
def test_a_foothold_ends_the_stands_movement_for_the_turn(rules_table: TableFactory) -> None:
    t = walls(rules_table, default_section_capacity=2)
    stand(t, "a", location=INSIDE)
    order(t, "a", "charge")
    advance(t)
    taken = climb(t, "a", "W2")
    assert (taken["approach"], taken["automatic_reason"], taken["movement_left_cm"]) == (
        "behind",
        "behind_undefended",
        0,
    )
    assert rejected(t, climbing("a", "W1")) == "climbed_this_turn"
    assert (
        rejected(t, {"type": "move", "stand_id": "a", "to": INSIDE, "distance_cm": 0}) == "climbed_this_turn"
    )


@rule("EP-MOVE-03", "EP-CLIMB-02")
def test_charge_climbers_go_before_advance_movers(rules_table: TableFactory) -> None:
    t = walls(rules_table, defended=True)
    stand(t, "adv")
    stand(t, "csm", location=at_foot("W1"))
    order(t, "adv", "advance")
    order(t, "csm", "charge")
    advance(t)
    t.send({"type": "move", "stand_id": "adv", "to": OUTSIDE, "distance_cm": 1})
    assert rejected(t, climbing("csm")) == "charge_movers_first"


@rule("EP-CLIMB-03", "EP-CLIMB-07", "EP-HOLD-01")
def test_climbing_a_section_held_by_ones_own_side_is_automatic_but_needs_room(
    rules_table: TableFactory,
) -> None:
    t = walls(rules_table)
    stand(t, "holder", location=on("W1"))
    stand(t, "a", location=at_foot("W1"))
    order(t, "a", "advance")
    advance(t)
    assert rejected(t, climbing("a")) == "section_full"


@rule("EP-CLIMB-03", "EP-BEHIND-01", "EP-BEHIND-03")
@pytest.mark.parametrize("kind", ["wall", "tower", "gate", "blockhouse"])
def test_an_undefended_section_of_any_kind_reached_from_behind_is_taken_without_a_roll(
    rules_table: TableFactory, kind: str
) -> None:
    t = rules_table("epic")
    section(t, "S", kind)
    stand(t, "a", location=INSIDE)
    order(t, "a", "advance")
    if kind == "gate":
        t.send({"type": "give_order", "gate_id": "S", "order": "first_fire"})
    advance(t)
    taken = climb(t, "a", "S")
    assert (taken["approach"], taken["defended"], taken["result"], taken["location"]) == (
        "behind",
        False,
        "foothold",
        on("S"),
    )


@rule("EP-CLIMB-03", "EP-TOWER-03")
def test_an_undefended_section_is_taken_from_a_siege_tower_without_a_roll(rules_table: TableFactory) -> None:
    t = walls(rules_table)
    stand(t, "lev", "transport_war_engine", capacity=1, location=at_foot("W1"))
    stand(t, "p", location=embarked("lev"))
    order(t, "lev", "charge")
    advance(t)
    taken = climb(t, "p", "W1")
    assert (taken["approach"], taken["automatic_reason"], taken["location"]) == (
        "tower",
        "tower_undefended",
        on("W1"),
    )
    assert t.state()["stands"][1]["location"] == on("W1")


@rule("EP-CLIMB-04", "EP-CLIMB-05")
def test_an_undefended_climb_from_outside_needs_the_roll_and_so_charge_orders(
    rules_table: TableFactory,
) -> None:
    t = walls(rules_table)
    stand(t, "adv", location=at_foot("W1"))
    stand(t, "chg", location=at_foot("W1"))
    order(t, "adv", "advance")
    order(t, "chg", "charge")
    advance(t)
    declared = climb(t, "chg", "W1")
    assert (declared["defended"], declared["result"], declared["automatic_reason"]) == (
        False,
        "pending",
        None,
    )
    assert rejected(t, climbing("adv")) == "charge_order_required"


@rule("EP-CLIMB-04", "EP-BEHIND-01", "EP-FORT-05")
def test_a_defended_section_reached_from_an_adjacent_section_needs_a_charge_fight(
    rules_table: TableFactory,
) -> None:
    t = walls(rules_table, defended=True)
    stand(t, "adv", location=on("W2"))
    stand(t, "chg", location=INSIDE)
    order(t, "adv", "advance")
    order(t, "chg", "charge")
    advance(t)
    assert rejected(t, climbing("adv")) == "charge_order_required"
    declared = climb(t, "chg", "W1")
    assert (declared["approach"], declared["defended"], declared["result"]) == ("behind", True, "pending")


@rule("EP-TOWER-04", "EP-CLIMB-06")
def test_passengers_leave_a_tower_one_at_a_time_but_other_climbers_may_pile_up(
    rules_table: TableFactory,
) -> None:
    t = walls(rules_table, defended=True)
    stand(t, "lev", "transport_war_engine", capacity=2, location=at_foot("W1"))
    stand(t, "p1", location=embarked("lev"))
    stand(t, "p2", location=embarked("lev"))
    stand(t, "foot1", location=at_foot("W1"))
    stand(t, "foot2", location=at_foot("W1"))
    for stand_id in ("lev", "foot1", "foot2"):
        order(t, stand_id, "charge")
    advance(t)
    assert climb(t, "p1", "W1")["approach"] == "tower"
    assert rejected(t, climbing("p2")) == "one_stand_at_a_time"
    assert climb(t, "foot1", "W1")["result"] == "pending"
    assert climb(t, "foot2", "W1")["result"] == "pending"
