"""Grid distance (PF-GEN-04) and exact arithmetic (PF-GEN-05)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.pathfinder.geometry import distance_ft, half, number, sign
from rules.pathfinder.state import Square


@pytest.mark.rule("PF-GEN-04")
@pytest.mark.parametrize(
    ("a", "b", "feet"),
    [
        ((0, 0), (0, 8), 40),
        ((0, 0), (30, 30), 225),
        ((0, 0), (1, 1), 5),
        ((0, 0), (2, 2), 15),
        ((3, -2), (0, 0), 20),
    ],
)
def test_every_second_diagonal_costs_ten_feet(a: tuple[int, int], b: tuple[int, int], feet: int) -> None:
    assert distance_ft(Square(x=a[0], y=a[1]), Square(x=b[0], y=b[1])) == feet


@pytest.mark.rule("PF-GEN-05")
def test_halving_rounds_down_and_fractions_stay_exact() -> None:
    assert half(9) == 4 and half(-9) == -5
    assert number(Fraction(9, 2)) == 4.5 and number(Fraction(4)) == 4 and isinstance(number(Fraction(4)), int)


@pytest.mark.rule("PF-SCATTER-01")
def test_sign_is_minus_one_zero_or_one_as_the_scatter_direction_reads_it() -> None:
    """`(sign vx, sign vy)`: the direction's unit step; its zero case is the axis of an octant."""
    assert [sign(v) for v in (-7, -1, 0, 1, 7)] == [-1, -1, 0, 1, 1]
