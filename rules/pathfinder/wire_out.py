"""Wire forms of state records inside results: squares `{x, y}`, targets `{creature_id}`…, `inside`."""

from __future__ import annotations

from rules.codec import JSON
from rules.pathfinder.state import Inside, Square, Successive, Target


def square(value: Square | None) -> JSON:
    return None if value is None else {"x": value.x, "y": value.y}


def target(value: Target | None) -> JSON:
    """The command's own target shape: `{creature_id}`, `{engine_id}`, `{structure_id}` or `{square}`."""
    if value is None:
        return None
    if value.kind == "square":
        return {"square": square(value.square)}
    return {f"{value.kind}_id": value.id}


def inside(value: Inside | None) -> JSON:
    return None if value is None else {"engine_id": value.engine_id, "level": value.level}


def successive(value: Successive) -> JSON:
    return {
        "seen_misses": value.seen_misses,
        "unseen_misses": value.unseen_misses,
        "reported_misses": value.reported_misses,
        "hit": value.hit,
    }
