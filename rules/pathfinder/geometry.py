"""Grid distance (PF-GEN-04) and the exact arithmetic helpers of PF-GEN-05."""

from __future__ import annotations

from fractions import Fraction

from rules.pathfinder.state import Square


def distance_ft(a: Square, b: Square) -> int:
    """Every second diagonal costs 10 ft: 5 × (max(dx, dy) + floor(min(dx, dy) / 2))."""
    dx, dy = abs(a.x - b.x), abs(a.y - b.y)
    return 5 * (max(dx, dy) + min(dx, dy) // 2)


def half(value: int) -> int:
    """PF-GEN-05: every halving rounds down."""
    return value // 2


def number(value: Fraction | int) -> int | float:
    """An exact multiple of ½ or ¼ as a JSON number: an int when whole, else its (exact binary) float."""
    fraction = Fraction(value)
    if fraction.denominator == 1:
        return int(fraction)
    return float(fraction)


def sign(value: int) -> int:
    return (value > 0) - (value < 0)
