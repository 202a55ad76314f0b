"""Builders for the "given" part of pathfinder tests: wire commands with the examples' defaults."""

from __future__ import annotations

from typing import Any

from tests.harness import Table


def at(x: int, y: int) -> dict[str, int]:
    return {"x": x, "y": y}


def creature(cid: str, *, x: int = 0, y: int = 0, **fields: Any) -> dict[str, Any]:
    """`add_creature` with the example defaults: size M, ac 10, hp 10 at (x, y)."""
    return {
        "type": "add_creature",
        "id": cid,
        "size": "M",
        "ac": 10,
        "hp": 10,
        "position": at(x, y),
        **fields,
    }


def engine(eid: str, catalog_id: str, *, x: int = 0, y: int = 0, **fields: Any) -> dict[str, Any]:
    return {"type": "place_engine", "id": eid, "catalog_id": catalog_id, "position": at(x, y), **fields}


def skill(ranks: int, modifier: int) -> dict[str, int]:
    return {"ranks": ranks, "modifier": modifier}


def crew(engine_id: str, *creature_ids: str) -> dict[str, Any]:
    """`assign_crew` with the first creature as leader."""
    return {
        "type": "assign_crew",
        "engine_id": engine_id,
        "creature_ids": list(creature_ids),
        "leader_id": creature_ids[0],
    }


def applied(table: Table, command: dict[str, Any]) -> dict[str, Any]:
    """Send a command that must be applied and return its result."""
    outcome = table.send(command)
    assert outcome["status"] == "applied", outcome["reason"]
    result: dict[str, Any] = outcome["result"]
    return result


def rejected(table: Table, command: dict[str, Any]) -> str:
    """Send a command that must be rejected and return the reason."""
    outcome = table.send(command)
    assert outcome["status"] == "rejected", outcome["result"]
    reason: str = outcome["reason"]
    return reason


def setup(table: Table, *commands: dict[str, Any]) -> None:
    for command in commands:
        applied(table, command)


def find(state: dict[str, Any], collection: str, entity_id: str) -> dict[str, Any]:
    """An entity of the projected state by id (`creatures`, `engines` or `structures`)."""
    found: dict[str, Any] = next(e for e in state[collection] if e["id"] == entity_id)
    return found
