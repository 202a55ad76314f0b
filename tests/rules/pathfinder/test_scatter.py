"""Scatter (PF-SCATTER-01..04, PF-FEAT-05)."""

from __future__ import annotations

import pytest

from rules.pathfinder.scatter import COMPASS, toward_engine
from rules.pathfinder.state import Square
from tests.conftest import TableFactory
from tests.rules.pathfinder.given import (
    PROFICIENT,
    aimed_engine,
    applied,
    at,
    creature,
    crew,
    fire,
    setup,
    square,
)


def direction_one(engine: tuple[int, int], target: tuple[int, int]) -> str:
    return COMPASS[toward_engine(Square(x=engine[0], y=engine[1]), Square(x=target[0], y=target[1]))][0]


@pytest.mark.rule("PF-SCATTER-01")
@pytest.mark.parametrize(
    ("engine", "target", "code"),
    [
        ((0, 0), (0, 40), "S"),
        ((0, 0), (20, 20), "SW"),
        ((0, 0), (10, 4), "W"),
        ((0, 0), (10, 5), "SW"),
        ((0, 0), (4, 10), "S"),
        ((5, 5), (5, 5), "S"),
        ((0, 0), (-3, 0), "E"),
        ((0, 0), (-7, -7), "NE"),
        ((1, 1), (0, 0), "NE"),  # the squares around the aimed one: components of 1, each sign's edge
        ((2, 1), (0, 0), "NE"),  # (1 + 2)² = 9 > 2 × 2² = 8: still the diagonal
        ((3, 1), (0, 0), "E"),  # (1 + 3)² = 16 ≤ 18: the axis
        ((1, 0), (0, 0), "E"),
        ((-1, 2), (0, 0), "NW"),
        ((0, -1), (0, 0), "S"),
        ((-1, -1), (0, 0), "SW"),
    ],
)
def test_direction_one_points_from_the_aimed_square_toward_the_engine(
    engine: tuple[int, int], target: tuple[int, int], code: str
) -> None:
    assert direction_one(engine, target) == code


@pytest.mark.rule("PF-SCATTER-01", "PF-SCATTER-02", "PF-SCATTER-03")
@pytest.mark.parametrize(
    ("d8", "code", "landing"),
    [(1, "S", (0, 38)), (2, "SW", (-2, 38)), (3, "W", (-2, 40)), (5, "N", (0, 42)), (8, "SE", (2, 38))],
)
def test_each_roll_steps_clockwise_from_direction_one(
    rules_table: TableFactory, d8: int, code: str, landing: tuple[int, int]
) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT),
        creature("mate"),
        aimed_engine("lc", "catapult_light", square(0, 40)),
        crew("lc", "lead", "mate"),
    )
    shot = applied(
        t,
        fire(
            "lc", {"targeting": [2], "scatter_direction": [d8], "scatter_distance": [1, 1], "damage": [1] * 4}
        ),
    )
    assert shot["landing"] == {
        "square": at(*landing),
        "scatter": {"d8": d8, "direction": code, "distance_squares": 2},
    }


@pytest.mark.rule("PF-SCATTER-04", "PF-AMMO-10")
def test_explode_before_launch_does_not_scatter(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("lead", **PROFICIENT),
        creature("mate", x=9),
        aimed_engine("lc", "catapult_light", square(0, 40), ammunition="liquid_ice"),
        crew("lc", "lead", "mate"),
    )
    outcome = t.send(fire("lc", {"targeting": [1], "damage": [1] * 4, "save": [20]}))
    assert outcome["result"]["landing"] == {"square": at(0, 0), "scatter": None}
    assert "scatter_direction" not in [r["slot"] for r in outcome["rolls"]]
