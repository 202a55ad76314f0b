"""Setup steps for epic battles, written only with `table.send`, so they also drive the HTTP API."""

from __future__ import annotations

from typing import Any

from tests.harness import Table

OUTSIDE: dict[str, Any] = {"kind": "outside"}
INSIDE: dict[str, Any] = {"kind": "inside"}


def at_foot(section_id: str) -> dict[str, Any]:
    return {"kind": "at_foot", "section_id": section_id}


def on(section_id: str) -> dict[str, Any]:
    return {"kind": "on", "section_id": section_id}


def embarked(transport_id: str) -> dict[str, Any]:
    return {"kind": "embarked", "transport_id": transport_id}


def applied(table: Table, command: dict[str, Any]) -> dict[str, Any]:
    """Send a command that must be applied; return its result."""
    outcome = table.send(command)
    assert outcome["status"] == "applied", outcome
    result: dict[str, Any] = outcome["result"]
    return result


def rejected(table: Table, command: dict[str, Any]) -> str:
    """Send a command that must be rejected; return its reason."""
    outcome = table.send(command)
    assert outcome["status"] == "rejected", outcome
    assert outcome["result"] is None
    reason: str = outcome["reason"]
    return reason


def section(table: Table, section_id: str, kind: str = "wall", **fields: Any) -> dict[str, Any]:
    return applied(table, {"type": "add_fortification", "id": section_id, "kind": kind, **fields})


def stand(
    table: Table,
    stand_id: str,
    stand_type: str = "infantry",
    side: str = "attacker",
    *,
    caf: int = 1,
    speed_cm: int = 10,
    location: dict[str, Any] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A stand with the examples' defaults: caf 1, speed 10 cm, outside (examples.md, Epic defaults)."""
    command = {
        "type": "add_stand",
        "id": stand_id,
        "stand_type": stand_type,
        "side": side,
        "caf": caf,
        "speed_cm": speed_cm,
        "location": location or OUTSIDE,
        **fields,
    }
    return applied(table, command)


def order(table: Table, stand_id: str, given: str) -> dict[str, Any]:
    return applied(table, {"type": "give_order", "stand_id": stand_id, "order": given})


def gate_order(table: Table, gate_id: str, given: str) -> dict[str, Any]:
    return applied(table, {"type": "give_order", "gate_id": gate_id, "order": given})


def orders(table: Table, **given: str) -> None:
    for target, value in given.items():
        order(table, target, value)


def advance(table: Table) -> dict[str, Any]:
    return applied(table, {"type": "advance_phase"})


def advance_to(table: Table, phase: str) -> dict[str, Any]:
    """Advance at least once, until `phase` is entered; the result of the last advance."""
    while True:
        result = advance(table)
        if result["phase_after"] == phase:
            return result


def climb(table: Table, stand_id: str, section_id: str) -> dict[str, Any]:
    return applied(table, {"type": "climb", "stand_id": stand_id, "section_id": section_id})


def with_dice(command: dict[str, Any], dice: dict[str, Any]) -> dict[str, Any]:
    """Only a command that supplies dice carries a `dice` object."""
    return {**command, "dice": dice} if dice else command


def assault(table: Table, stand_id: str, section_id: str, **dice: Any) -> dict[str, Any]:
    return applied(
        table, with_dice({"type": "assault", "stand_id": stand_id, "section_id": section_id}, dice)
    )


def move(table: Table, stand_id: str, to: dict[str, Any], distance_cm: int, **fields: Any) -> dict[str, Any]:
    return applied(
        table, {"type": "move", "stand_id": stand_id, "to": to, "distance_cm": distance_cm, **fields}
    )


def weapon(weapon_id: str = "bolter", to_hit: int = 4, save_modifier: int = 0) -> dict[str, Any]:
    return {"id": weapon_id, "to_hit": to_hit, "save_modifier": save_modifier}


def fire_at_section(stand_id: str, section_id: str, gun: dict[str, Any], **dice: Any) -> dict[str, Any]:
    return {
        "type": "fire",
        "stand_id": stand_id,
        "weapon": gun,
        "target": {"section_id": section_id},
        "dice": dice,
    }


def fire_at_stand(stand_id: str, target_id: str, gun: dict[str, Any], **dice: Any) -> dict[str, Any]:
    return {
        "type": "fire",
        "stand_id": stand_id,
        "weapon": gun,
        "target": {"stand_id": target_id},
        "dice": dice,
    }
