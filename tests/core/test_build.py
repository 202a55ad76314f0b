"""rules.build: a logged command's JSON → its record; what the API's schema would refuse is `invalid_field`
(an import, a replay or a test reaching the rules without the API), anything else is read as declared."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

from rules.build import ID_LENGTH, build
from rules.declare import WireForm, wire
from rules.errors import Rejected
from tests.core.tagged import Far, Near


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
    {"stance": ["hold"]},  # no list is one of the values (nor a crash: a list cannot be looked up)
    {"flank": "centre"},  # not one of the string choices
    {"flank": 0},
    {"flank": {"side": "left"}},
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
    not_objects: tuple[object, ...] = (None, [], "u1", 3)
    for data in not_objects:
        with pytest.raises(Rejected, match="invalid_field"):
            build(Orders, data)


def test_a_refusal_names_the_field_and_an_inner_field_names_it_first() -> None:
    with pytest.raises(Rejected) as refused:
        build(Orders, {**ORDERS, "strength": 0})
    assert (refused.value.reason, refused.value.detail) == ("invalid_field", {"field": "strength"})
    with pytest.raises(Rejected) as refused:
        build(Orders, {})
    assert (refused.value.reason, refused.value.detail) == ("invalid_field", {"field": "unit_id"})
    with pytest.raises(Rejected) as refused:
        build(Orders, {**ORDERS, "path": [{"x": "1", "y": 1}]})
    assert refused.value.detail == {"field": "x"}
    with pytest.raises(Rejected) as refused:
        build(Orders, {**ORDERS, "path": [{"x": 1}]})
    assert refused.value.detail == {"field": "y"}


def test_members_the_record_does_not_declare_are_ignored() -> None:
    assert build(Orders, {**ORDERS, "speed": 9, "kind": "orders"}) == Orders(unit_id="u1")


@dataclass(frozen=True, slots=True, kw_only=True)
class Tally:
    """Fields no fact narrows: any integer, any list length, repeats allowed."""

    count: int = 0
    marks: tuple[int, ...] = ()
    squares: tuple[Square, ...] = ()


def test_a_field_no_fact_narrows_takes_any_value_of_its_type() -> None:
    assert build(Tally, {"count": -(10**9)}).count == -(10**9)
    assert build(Tally, {"count": 10**9}).count == 10**9
    assert build(Tally, {"marks": []}).marks == ()  # no min_items: an empty list is a list
    assert build(Tally, {"marks": [2, 2, 2]}).marks == (2, 2, 2)  # not unique: repeats stay
    squares = [{"x": 1, "y": 1}, {"x": 1, "y": 1}]
    assert build(Tally, {"squares": squares}).squares == (Square(x=1, y=1), Square(x=1, y=1))


@dataclass(frozen=True, slots=True, kw_only=True)
class Creature:
    """Defaults copied from a sibling (`touch_ac` from `ac`) or given by a rule (`assembled`)."""

    ac: int = 10
    touch_ac: int | None = field(default=None, metadata=wire(default_from="ac"))
    assembled: bool | None = field(default=None, metadata=wire(default_from="PF-ASSEMBLE-05"))


def test_an_omitted_or_null_field_copies_the_sibling_its_default_comes_from() -> None:
    assert build(Creature, {"ac": 14}) == Creature(ac=14, touch_ac=14)
    assert build(Creature, {"ac": 14, "touch_ac": None}) == Creature(ac=14, touch_ac=14)
    assert build(Creature, {"ac": 14, "touch_ac": 12}) == Creature(ac=14, touch_ac=12)
    assert build(Creature, {"touch_ac": 12}) == Creature(ac=10, touch_ac=12)


def test_a_copied_default_whose_sibling_is_omitted_takes_the_siblings_default() -> None:
    assert build(Creature, {}) == Creature(ac=10, touch_ac=10)
    assert build(Creature, {"touch_ac": None}) == Creature(ac=10, touch_ac=10)


def test_a_default_a_rule_gives_is_left_to_the_rule() -> None:
    assert build(Creature, {"ac": 14}).assembled is None
    assert build(Creature, {"assembled": None}).assembled is None
    assert build(Creature, {"assembled": False}).assembled is False


@dataclass(frozen=True, slots=True, kw_only=True)
class Point:
    """What the client sends for a `Spot`."""

    x: int
    y: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Spot:
    """What the record keeps."""

    label: str


AS_SPOT = WireForm(record=Point, to_record=lambda point: Spot(label=f"{point.x},{point.y}"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Aim:
    """Fields sent in another record's shape: required, nullable, and nullable only by omission."""

    at: Spot = field(metadata=wire(form=AS_SPOT))
    then: Spot | None = field(default=None, metadata=wire(form=AS_SPOT))
    last: Spot | None = field(default=None, metadata=wire(form=AS_SPOT, omit_only=True))


def test_a_field_sent_in_another_shape_is_built_from_that_shape() -> None:
    sent = {"at": {"x": 1, "y": 2}, "then": {"x": 3, "y": 4}, "last": {"x": 5, "y": 6}}
    assert build(Aim, sent) == Aim(at=Spot(label="1,2"), then=Spot(label="3,4"), last=Spot(label="5,6"))
    assert build(Aim, {"at": {"x": 1, "y": 2}, "then": None}) == Aim(at=Spot(label="1,2"))


@pytest.mark.parametrize(
    "fields",
    [
        {"at": None},  # not nullable
        {"at": {"label": "1,2"}},  # the record's own shape is not the wire's
        {"at": {"x": 1, "y": 2}, "last": None},  # omit_only
        {"at": {"x": 1, "y": 2}, "then": {"x": 1}},
    ],
    ids=repr,
)
def test_a_field_sent_in_another_shape_refuses_what_that_shape_refuses(fields: dict[str, Any]) -> None:
    with pytest.raises(Rejected, match="invalid_field"):
        build(Aim, fields)


@dataclass(frozen=True, slots=True, kw_only=True)
class Move:
    """A union of records told apart by `kind`, one narrowed by `choices`, one beside a default marker."""

    to: Near | Far
    near_only: Near | Far | None = field(default=None, metadata=wire(choices=("near",)))
    via: Near | Literal["unchanged"] = "unchanged"
    via_any: Near | Far | Literal["unchanged"] = field(default="unchanged", metadata=wire(choices=("far",)))


def test_a_tagged_union_is_built_as_the_record_its_kind_names() -> None:
    assert build(Move, {"to": {"kind": "far"}}) == Move(to=Far())
    assert build(Move, {"to": {"kind": "near", "x": 3}}) == Move(to=Near(x=3))
    assert build(Move, {"to": {"kind": "far"}, "near_only": {"kind": "near", "x": 1}}).near_only == Near(x=1)
    assert build(Move, {"to": {"kind": "far"}, "near_only": None}).near_only is None


def test_a_default_marker_is_kept_when_omitted_and_the_record_beside_it_is_read_when_sent() -> None:
    assert build(Move, {"to": {"kind": "far"}}).via == "unchanged"
    assert build(Move, {"to": {"kind": "far"}, "via": {"kind": "near", "x": 2}}).via == Near(x=2)
    assert build(Move, {"to": {"kind": "far"}}).via_any == "unchanged"
    assert build(Move, {"to": {"kind": "far"}, "via_any": {"kind": "far"}}).via_any == Far()


@pytest.mark.parametrize(
    "fields",
    [
        {"to": {"x": 3}},  # no kind
        {"to": {"kind": "up"}},  # no such kind
        {"to": {"kind": 1}},
        {"to": "far"},  # a kind alone is no record
        {"to": None},
        {"to": {"kind": "near"}},  # the kind's record refuses what it refuses
        {"to": {"kind": "far"}, "near_only": {"kind": "far"}},  # a kind its choices leave out
        {"to": {"kind": "far"}, "via": "unchanged"},  # the marker is never sent
        {"to": {"kind": "far"}, "via_any": "unchanged"},
        {"to": {"kind": "far"}, "via_any": {"kind": "near", "x": 2}},  # beside a marker, choices still narrow
    ],
    ids=repr,
)
def test_a_tagged_union_refuses_what_no_allowed_kind_reads(fields: dict[str, Any]) -> None:
    with pytest.raises(Rejected, match="invalid_field"):
        build(Move, fields)
