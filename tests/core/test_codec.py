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


@dataclass(frozen=True, slots=True, kw_only=True)
class Mixed:
    """Unions the codec reads without a `kind` to go by: a scalar kept as sent, a list its first member's."""

    number_or_name: int | str
    ratio_or_name: float | str
    names: tuple[str, ...] | str
    where: On | str | None


def test_a_scalar_union_keeps_the_value_as_sent() -> None:
    read = decode(Mixed, {"number_or_name": "3", "ratio_or_name": "half", "names": "solo", "where": "gate"})
    assert read == Mixed(number_or_name="3", ratio_or_name="half", names="solo", where="gate")
    assert (
        decode(Mixed, {"number_or_name": 3, "ratio_or_name": 1.5, "names": "x", "where": None}).number_or_name
        == 3
    )


def test_an_integer_for_a_float_or_a_string_is_read_as_the_float() -> None:
    read = decode(Mixed, {"number_or_name": 1, "ratio_or_name": 2, "names": "x", "where": None})
    assert read.ratio_or_name == 2.0 and isinstance(read.ratio_or_name, float)


def test_a_list_for_a_tuple_or_a_string_is_read_as_the_tuple_and_a_tagged_record_by_its_kind() -> None:
    read = decode(Mixed, {"number_or_name": 1, "ratio_or_name": "x", "names": ["a", "b"],
                          "where": {"kind": "on", "section_id": "W1"}})  # fmt: skip
    assert read.names == ("a", "b") and read.where == On(section_id="W1")
    assert decode(Mixed, encode(read)) == read
