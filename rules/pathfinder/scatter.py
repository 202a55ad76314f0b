"""Scatter of a missed indirect shot (PF-SCATTER-01..03, PF-FEAT-05)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import Dice
from rules.pathfinder.feats import SIEGE_GUNNER
from rules.pathfinder.geometry import sign
from rules.pathfinder.state import Creature, Square


@dataclass(frozen=True, slots=True, kw_only=True)
class Scatter:
    """PF-SCATTER-01..03: the d8, its compass direction and how far the shot strays."""

    d8: int
    direction: str
    distance_squares: int


# clockwise seen from above
COMPASS: tuple[tuple[str, int, int], ...] = (
    ("N", 0, 1),
    ("NE", 1, 1),
    ("E", 1, 0),
    ("SE", 1, -1),
    ("S", 0, -1),
    ("SW", -1, -1),
    ("W", -1, 0),
    ("NW", -1, 1),
)


def toward_engine(engine: Square, target: Square) -> int:
    """Direction 1: the octant from the aimed square toward the engine (S when they coincide)."""
    vx, vy = engine.x - target.x, engine.y - target.y
    if (vx, vy) == (0, 0):
        return 4
    ax, ay = abs(vx), abs(vy)
    mx, mn = max(ax, ay), min(ax, ay)
    if (mn + mx) ** 2 > 2 * mx**2:
        step = (sign(vx), sign(vy))
    elif ax >= ay:
        step = (sign(vx), 0)
    else:
        step = (0, sign(vy))
    return next(i for i, (_, dx, dy) in enumerate(COMPASS) if (dx, dy) == step)


def scatter(
    dice: Dice, leader: Creature, increments: int, engine: Square, target: Square
) -> tuple[Square, Scatter]:
    """d8 = k: k − 1 steps clockwise from direction 1; then increments × d4 squares (exact: Siege Gunner)."""
    d8 = dice.one("scatter_direction", 8)
    code, dx, dy = COMPASS[(toward_engine(engine, target) + d8 - 1) % 8]
    if leader.has_feat(SIEGE_GUNNER):
        distance = increments
    else:
        distance = sum(dice.roll("scatter_distance", 4, increments, summed=(increments,)))
    landing = Square(x=target.x + distance * dx, y=target.y + distance * dy)
    return landing, Scatter(d8=d8, direction=code, distance_squares=distance)
