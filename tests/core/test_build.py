"""rules.build: a logged command's JSON → its record; what the API's schema would refuse is `invalid_field`
(an import, a replay or a test reaching the rules without the API), anything else is read as declared."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

from rules.build import ID_LENGTH, build
from rules.declare import wire
from rules.errors import Rejected


@dataclass(frozen=True, slots=True, kw_only=True)
class Square:
    x: int
    y: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Orders:
    """One field of each kind a command declares."""

    unit_id: str = field(metadata=wire(ref="unit"))
    strength: int = field(default=1, metadata=wire(minimum=1, maximum=6))
    rounds: int = field(default=1, metadata=wire(choices=(1, 2, 4)))
    stance: Literal["hold", "charge"] = "hold"
    flank: str = field(default="left", metadata=wire(choices=("left", "right")))
    note: str = field(default="", metadata=wire(text=True))
    hidden: bool = False
    helpers: tuple[str, ...] = field(default=(), metadata=wire(ref="unit", min_items=1, unique=True))
    path: tuple[Square, ...] = field(default=(), metadata=wire(unique_by="x"))
    leader_id: str | None = None
    banner_id: str | None = field(default=None, metadata=wire(omit_only=True))


ORDERS = {"unit_id": "u1"}


def test_a_command_with_only_its_required_fields_takes_every_default() -> None:
    assert build(Orders, ORDERS) == Orders(unit_id="u1")


def test_every_field_sent_is_read_as_declared() -> None:
    sent = {
        "unit_id": "u1", "strength": 6, "rounds": 4, "stance": "charge", "flank": "right", "note": "x" * 300,
        "hidden": True, "helpers": ["u2", "u3"], "path": [{"x": 1, "y": 1}, {"x": 2, "y": 1}],
        "leader_id": None, "banner_id": "b1",
    }  # fmt: skip
    read = build(Orders, sent)
    assert read == Orders(
        unit_id="u1", strength=6, rounds=4, stance="charge", flank="right", note="x" * 300, hidden=True,
        helpers=("u2", "u3"), path=(Square(x=1, y=1), Square(x=2, y=1)), leader_id=None, banner_id="b1",
    )  # fmt: skip


REFUSED: list[dict[str, Any]] = [
    {"strength": 0},  # below the minimum
    {"strength": 7},  # above the maximum
    {"strength": True},  # a bool is no integer here
    {"strength": "3"},
    {"rounds": 3},  # not one of the integer choices
    {"stance": "flee"},  # not one of the literal's values
    {"stance": 1},
    {"flank": "centre"},  # not one of the string choices
    {"flank": 0},
    {"note": 5},  # free text is still text
    {"hidden": 1},  # a bool is only true or false
    {"unit_id": ""},  # an id is 1 to ID_LENGTH characters
    {"unit_id": "u" * (ID_LENGTH + 1)},
    {"unit_id": 7},
    {"helpers": []},  # fewer than min_items
    {"helpers": "u2"},  # a list is a list
    {"helpers": ["u2", "u2"]},  # unique
    {"helpers": ["u2", 3]},  # each item as declared
    {"path": [{"x": 1, "y": 1}, {"x": 1, "y": 2}]},  # unique by x
    {"path": {"x": 1, "y": 1}},
    {"leader_id": 3},
    {"banner_id": None},  # omit_only: a null is no omission
    {"unit_id": None},  # not nullable
]
# what no JSON Schema can say: the field's description says it instead (rules.declare.described)
UNIQUE_BY = {"path": [{"x": 1, "y": 1}, {"x": 1, "y": 2}]}


@pytest.mark.parametrize("fields", REFUSED, ids=repr)
def test_a_value_the_schema_would_refuse_is_invalid_field(fields: dict[str, Any]) -> None:
    with pytest.raises(Rejected) as refused:
        build(Orders, {**ORDERS, **fields})
    assert refused.value.reason == "invalid_field"


def test_the_edges_of_every_range_are_inside_it() -> None:
    assert build(Orders, {**ORDERS, "strength": 1}).strength == 1
    assert build(Orders, {**ORDERS, "strength": 6}).strength == 6
    assert build(Orders, {**ORDERS, "unit_id": "u" * ID_LENGTH}).unit_id == "u" * ID_LENGTH
    assert build(Orders, {**ORDERS, "unit_id": "u"}).unit_id == "u"
    assert build(Orders, {**ORDERS, "helpers": ["u2"]}).helpers == ("u2",)
    assert build(Orders, {**ORDERS, "leader_id": "u9"}).leader_id == "u9"


def test_what_is_no_object_is_invalid_field() -> None:
    for data in (None, [], "u1", 3):
        with pytest.raises(Rejected, match="invalid_field"):
            build(Orders, data)
