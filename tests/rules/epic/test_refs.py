"""Who acts in an epic command, for side tokens (DESIGN §4.9): stands act for their side, gates for the
defender; setup of fortifications and phases is the referee's."""

from __future__ import annotations

from typing import Any

import pytest

from rules.epic import RULESET
from tests.conftest import TableFactory

WALL = {"type": "add_fortification", "id": "W1", "kind": "wall"}
GATE = {"type": "add_fortification", "id": "G1", "kind": "gate"}


def stand(stand_id: str, side: str) -> dict[str, Any]:
    return {
        "type": "add_stand",
        "id": stand_id,
        "stand_type": "infantry",
        "side": side,
        "caf": 2,
        "speed_cm": 10,
        "location": {"kind": "outside"},
    }


def sides(table: Any, command: dict[str, Any]) -> frozenset[str] | None:
    body = {k: v for k, v in command.items() if k != "type"}
    parsed = RULESET.parse(command["type"], body)
    assert RULESET.acting_sides is not None
    return RULESET.acting_sides(parsed, RULESET.decode_state(table.state()))


@pytest.fixture
def table(rules_table: TableFactory) -> Any:
    table = rules_table("epic")
    stands = [stand("csm", "attacker"), stand("goff", "defender"), stand("rhino", "attacker")]
    for command in (WALL, GATE, *stands):
        table.send(command)
    return table


ACTING: dict[str, tuple[dict[str, Any], frozenset[str] | None]] = {
    "advance_phase is the referee's": ({"type": "advance_phase"}, None),
    "fortifications are the referee's": ({**WALL, "id": "W2"}, None),
    "a new stand acts for its side": (stand("orc", "defender"), frozenset({"defender"})),
    "a stand's order": (
        {"type": "give_order", "stand_id": "csm", "order": "charge"},
        frozenset({"attacker"}),
    ),
    "a gate's order": ({"type": "give_order", "gate_id": "G1", "order": "charge"}, frozenset({"defender"})),
    "both ids of an order": (
        {"type": "give_order", "stand_id": "csm", "gate_id": "G1", "order": "charge"},
        frozenset({"attacker", "defender"}),
    ),
    "a move": (
        {"type": "move", "stand_id": "goff", "to": {"kind": "inside"}, "distance_cm": 1},
        frozenset({"defender"}),
    ),
    "boarding acts with the stand, not the transport": (
        {"type": "embark", "stand_id": "goff", "transport_id": "rhino"},
        frozenset({"defender"}),
    ),
    "a disembark": ({"type": "disembark", "stand_id": "csm"}, frozenset({"attacker"})),
    "a climb": ({"type": "climb", "stand_id": "csm", "section_id": "W1"}, frozenset({"attacker"})),
    "an assault acts with the assailant, not its target": (
        {"type": "assault", "stand_id": "csm", "section_id": "W1", "defender_id": "goff"},
        frozenset({"attacker"}),
    ),
    "a shot acts with the firer": (
        {
            "type": "fire",
            "stand_id": "csm",
            "weapon": {"id": "bolter", "to_hit": 4},
            "target": {"stand_id": "goff"},
        },
        frozenset({"attacker"}),
    ),
    "a barrage acts with every firer": (
        {
            "type": "barrage",
            "stand_ids": ["csm", "goff"],
            "weapon_id": "w",
            "barrage_points": 1,
            "kind": "direct",
        },
        frozenset({"attacker", "defender"}),
    ),
    "gates are worked by the defender": (
        {"type": "operate_gate", "gate_id": "G1", "action": "open"},
        frozenset({"defender"}),
    ),
    "gates are repaired by the defender": ({"type": "repair", "gate_id": "G1"}, frozenset({"defender"})),
    "an unknown stand counts for no side": (
        {"type": "climb", "stand_id": "ghost", "section_id": "W1"},
        frozenset(),
    ),
}


@pytest.mark.rule("EP-GEN-02")
@pytest.mark.parametrize("command, expected", ACTING.values(), ids=ACTING.keys())
def test_a_command_acts_for_the_sides_of_the_stands_and_gates_it_uses(
    table: Any, command: dict[str, Any], expected: frozenset[str] | None
) -> None:
    assert sides(table, command) == expected


def test_every_epic_command_is_covered() -> None:
    covered = {command["type"] for command, _ in ACTING.values()}
    assert covered == set(RULESET.commands)
