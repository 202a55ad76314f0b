"""Wire shapes the commands accept that are not plain records: targets such as {creature_id} or {square}."""

from __future__ import annotations

from collections.abc import Mapping

from rules.codec import JSON
from rules.errors import Rejected

TARGET_KEYS = {"creature_id": "creature", "engine_id": "engine", "structure_id": "structure"}


def target_record(wire: JSON) -> JSON:
    """`{creature_id}`, `{engine_id}`, `{structure_id}` or `{square: {x, y}}` → the Target record's fields."""
    if wire is None:
        return None
    if not isinstance(wire, Mapping):
        raise Rejected("invalid_field")
    if "square" in wire:
        return {"kind": "square", "square": wire["square"]}
    for key, kind in TARGET_KEYS.items():
        if key in wire:
            return {"kind": kind, "id": wire[key]}
    raise Rejected("invalid_field")


def normalise(data: Mapping[str, JSON]) -> dict[str, JSON]:
    """Rewrite the target-shaped fields of a command body (`target`, `state.aimed_at`) into record form."""
    body = dict(data)
    if "target" in body:
        body["target"] = target_record(body["target"])
    state = body.get("state")
    if isinstance(state, Mapping) and "aimed_at" in state:
        body["state"] = {**state, "aimed_at": target_record(state["aimed_at"])}
    return body
