"""Transports: embark and disembark (EP-TOWER-01, EP-MOVE-03)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.rules.epic.given import (
    advance,
    applied,
    at_foot,
    embarked,
    order,
    rejected,
    section,
    stand,
)

rule = pytest.mark.rule


@rule("EP-TOWER-01")
def test_embarking_needs_a_transport_at_the_same_place_with_room(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "W1")
    stand(t, "lev", "transport_war_engine", capacity=1, location=at_foot("W1"))
    stand(t, "rhino", "vehicle", location=at_foot("W1"))
    stand(t, "far")
    stand(t, "a", location=at_foot("W1"))
    stand(t, "b", location=at_foot("W1"))
    for stand_id in ("far", "a", "b"):
        order(t, stand_id, "charge")
    advance(t)

    def board(stand_id: str, transport_id: str = "lev") -> dict[str, Any]:
        return {"type": "embark", "stand_id": stand_id, "transport_id": transport_id}

    assert rejected(t, board("a", "rhino")) == "not_a_transport"
    assert rejected(t, board("far")) == "not_in_contact"
    boarded = applied(t, board("a"))
    assert boarded["location"] == embarked("lev")
    assert rejected(t, board("a")) == "embarked"
    assert rejected(t, board("b")) == "transport_full"
    left = applied(t, {"type": "disembark", "stand_id": "a"})
    assert (left["transport_id"], left["location"]) == ("lev", at_foot("W1"))
    assert rejected(t, {"type": "disembark", "stand_id": "a"}) == "not_embarked"
    assert [s["movement_left_cm"] for s in t.state()["stands"] if s["id"] == "a"] == [20]


@rule("EP-TOWER-01", "EP-MOVE-03")
def test_embarking_needs_an_order_that_allows_movement_and_charge_stands_go_first(
    rules_table: TableFactory,
) -> None:
    t = rules_table("epic")
    stand(t, "lev", "transport_war_engine", capacity=2)
    stand(t, "ff")
    stand(t, "adv")
    stand(t, "chg")
    order(t, "ff", "first_fire")
    order(t, "adv", "advance")
    order(t, "chg", "charge")
    advance(t)
    assert rejected(t, {"type": "embark", "stand_id": "ff", "transport_id": "lev"}) == "order_forbids_move"
    applied(t, {"type": "embark", "stand_id": "adv", "transport_id": "lev"})
    assert rejected(t, {"type": "embark", "stand_id": "chg", "transport_id": "lev"}) == "charge_movers_first"
