"""Frozen dataclasses survive the trip to plain JSON and back, tagged unions included."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from rules.codec import decode, encode


@dataclass(frozen=True, slots=True, kw_only=True)
class Outside:
    kind: Literal["outside"] = "outside"


@dataclass(frozen=True, slots=True, kw_only=True)
class On:
    kind: Literal["on"] = "on"
    section_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Piece:
    id: str
    where: Outside | On
    tags: tuple[str, ...] = ()
    counters: Mapping[str, int] | None = None
    weight: float = 0.5


def test_round_trip_keeps_every_field_and_the_union_member() -> None:
    piece = Piece(id="csm", where=On(section_id="E1"), tags=("a", "b"), counters={"x": 1}, weight=4.5)
    assert decode(Piece, encode(piece)) == piece
    assert decode(Piece, encode(Piece(id="g", where=Outside()))) == Piece(id="g", where=Outside())
