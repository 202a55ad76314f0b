"""Orders: EP-ORDER-01..05 (give_order; passengers take their transport's order)."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.rules.epic.given import (
    advance,
    applied,
    embarked,
    order,
    rejected,
    section,
    stand,
)

rule = pytest.mark.rule


@rule("EP-ORDER-01")
def test_a_second_order_replaces_the_first(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    stand(t, "a")
    order(t, "a", "charge")
    order(t, "a", "first_fire")
    assert advance(t)["revealed_orders"] == {"a": "first_fire"}


@rule("EP-ORDER-01")
def test_an_order_for_a_gate_must_name_a_gate(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    section(t, "W1")
    stand(t, "a")
    assert rejected(t, {"type": "give_order", "gate_id": "W1", "order": "advance"}) == "not_a_gate"
    assert rejected(t, {"type": "give_order", "gate_id": "a", "order": "advance"}) == "not_a_gate"


@rule("EP-ORDER-04", "EP-ORDER-01")
def test_passengers_take_their_transports_order_even_none(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    stand(t, "lev", "transport_war_engine", capacity=2, speed_cm=12)
    stand(t, "lev2", "transport_war_engine", capacity=1)
    stand(t, "p1", speed_cm=8, location=embarked("lev"))
    stand(t, "p2", location=embarked("lev2"))
    assert (
        rejected(t, {"type": "give_order", "stand_id": "p1", "order": "advance"})
        == "embarked_follows_transport"
    )
    order(t, "lev", "advance")
    result = advance(t)
    assert result["revealed_orders"] == {"lev": "advance", "p1": "advance"}
    assert result["movement_allowances"] == {"lev": 12, "lev2": 0, "p1": 8, "p2": 0}
    assert [s["order"] for s in t.state()["stands"]] == ["advance", None, "advance", None]


@rule("EP-ORDER-04")
def test_a_passenger_keeps_its_transports_order_after_leaving_it(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    stand(t, "lev", "transport_war_engine", capacity=1)
    stand(t, "p1", location=embarked("lev"))
    order(t, "lev", "charge")
    advance(t)
    applied(t, {"type": "disembark", "stand_id": "p1"})
    assert (
        applied(t, {"type": "move", "stand_id": "p1", "to": {"kind": "outside"}, "distance_cm": 20})[
            "movement_left_cm"
        ]
        == 0
    )


@rule("EP-ORDER-04")
def test_a_stand_that_embarks_during_the_turn_keeps_its_own_order(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    stand(t, "lev", "transport_war_engine", capacity=1)
    stand(t, "tac")
    order(t, "lev", "charge")
    order(t, "tac", "advance")
    advance(t)
    applied(t, {"type": "embark", "stand_id": "tac", "transport_id": "lev"})
    assert [s["order"] for s in t.state()["stands"]] == ["charge", "advance"]


@rule("EP-ORDER-02", "EP-ORDER-03")
def test_a_gate_added_after_the_orders_phase_has_no_order(rules_table: TableFactory) -> None:
    t = rules_table("epic")
    advance(t)
    section(t, "G9", "gate")
    outcome = t.send({"type": "operate_gate", "gate_id": "G9", "action": "open"})
    assert outcome["reason"] == "no_order"
