"""`refs.owner`: who acts in a pathfinder command, for side tokens (DESIGN §4.9, spec §3.2 and §3.4):
engines and creatures act for their `side`; a sideless entity, rounds, wind and structures are the
GM's alone."""

from __future__ import annotations

from typing import Any

import pytest

from rules.pathfinder import RULESET
from tests.conftest import TableFactory
from tests.rules.pathfinder.given import at, creature, engine

RED, BLUE = frozenset({"red"}), frozenset({"blue"})


def sides(table: Any, command: dict[str, Any]) -> frozenset[str] | None:
    body = {k: v for k, v in command.items() if k != "type"}
    parsed = RULESET.parse(command["type"], body)
    assert RULESET.acting_sides is not None
    return RULESET.acting_sides(parsed, RULESET.decode_state(table.state()))


@pytest.fixture
def table(rules_table: TableFactory) -> Any:
    """Red's ballista and ram with two red creatures, blue's corvus and a blue creature, a sideless one."""
    table = rules_table("pathfinder")
    for command in (
        engine("ballista", "ballista_light", side="red"),
        engine("ram", "ram_large", side="red"),
        engine("corvus", "corvus", side="blue"),
        creature("r1", side="red"),
        creature("r2", side="red"),
        creature("b1", side="blue"),
        creature("npc"),
    ):
        table.send(command)
    return table


def contributors(*ids: str) -> list[dict[str, Any]]:
    return [{"creature_id": creature_id, "actions": 1} for creature_id in ids]


ACTING: dict[str, tuple[dict[str, Any], frozenset[str] | None]] = {
    "rounds are the GM's": ({"type": "advance_round"}, None),
    "wind is the GM's": ({"type": "set_wind", "level": "strong"}, None),
    "structures are the GM's": (
        {"type": "add_structure", "id": "w", "kind": "wall", "material": "stone", "position": at(5, 5)},
        None,
    ),
    "a creature with a side acts for it": (creature("r3", side="red"), RED),
    "a sideless creature is the GM's": (creature("npc2"), None),
    "an engine with a side acts for it": (engine("b2", "ballista_light", side="blue"), BLUE),
    "a sideless engine is the GM's": (engine("b3", "ballista_light"), None),
    "moving a creature": ({"type": "move_creature", "creature_id": "b1", "position": at(1, 1)}, BLUE),
    "moving a sideless creature": (
        {"type": "move_creature", "creature_id": "npc", "position": at(1, 1)},
        None,
    ),
    "crewing acts with the engine and every crew member": (
        {"type": "assign_crew", "engine_id": "ballista", "creature_ids": ["r1", "b1"], "leader_id": "r1"},
        RED | BLUE,
    ),
    "a spell on an engine": (
        {
            "type": "cast_engine_spell",
            "engine_id": "corvus",
            "spell": "magic_siege_engine",
            "caster_level": 5,
            "duration_rounds": 3,
        },
        BLUE,
    ),
    "assembly acts with the engine and its workers": (
        {"type": "assemble", "engine_id": "ballista", "worker_ids": ["r1", "r2"], "leader_id": "r1"},
        RED,
    ),
    "moving an engine": ({"type": "move_engine", "engine_id": "ballista", "to": at(2, 2)}, RED),
    "loading acts with the engine and its contributors": (
        {"type": "load", "engine_id": "ballista", "contributors": contributors("r1", "b1")},
        RED | BLUE,
    ),
    "aiming acts with the engine, not its target": (
        {"type": "aim", "engine_id": "ballista", "target": {"creature_id": "b1"}, "contributors": []},
        RED,
    ),
    "firing acts with the engine": ({"type": "fire", "engine_id": "ballista"}, RED),
    "observing acts with the engine and the observer": (
        {"type": "observe", "engine_id": "ballista", "observer_id": "r2"},
        RED,
    ),
    "a repair acts with the repairer": (
        {"type": "repair", "engine_id": "corvus", "by": "r1", "kind": "broken"},
        RED,
    ),
    "sabotage acts with the saboteur, not the engine": (
        {"type": "disable", "engine_id": "corvus", "by": "r1", "mode": "sabotage"},
        RED,
    ),
    "ramming acts with the ram": (
        {"type": "ram", "engine_id": "ram", "target": {"engine_id": "corvus"}},
        RED,
    ),
    "breaking with a ram": ({"type": "break", "structure_id": "g", "engine_id": "ram"}, RED),
    "breaking by hand": ({"type": "break", "structure_id": "g", "by": "b1"}, BLUE),
    "a gate is worked by its contributors": (
        {"type": "operate_gate", "structure_id": "g", "contributors": ["r1", "npc"]},
        None,
    ),
    "raising a bridge": ({"type": "raise_bridge", "engine_id": "ram", "contributors": ["r1"]}, RED),
    "a corvus": ({"type": "use_corvus", "engine_id": "corvus", "action": "drop"}, BLUE),
    "dislodging acts with the creature, not the enemy corvus": (
        {"type": "dislodge_corvus", "engine_id": "corvus", "by": "r1", "method": "strength"},
        RED,
    ),
    "crushing acts with the wheel, not its victims": (
        {"type": "crush", "engine_id": "ram", "target_ids": ["b1"]},
        RED,
    ),
    "unknown ids count for no side": ({"type": "fire", "engine_id": "ghost"}, frozenset()),
}


@pytest.mark.parametrize("command, expected", ACTING.values(), ids=ACTING.keys())
def test_a_command_acts_for_the_sides_of_the_engines_and_creatures_it_uses(
    table: Any, command: dict[str, Any], expected: frozenset[str] | None
) -> None:
    assert sides(table, command) == expected


def test_every_pathfinder_command_is_covered() -> None:
    covered = {command["type"] for command, _ in ACTING.values()}
    assert covered == set(RULESET.commands)
