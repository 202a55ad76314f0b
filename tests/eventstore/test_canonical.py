"""canonical_json writes the very bytes of the canonical json.dumps at orjson's speed, whatever the value."""

from __future__ import annotations

import enum
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eventstore.canonical import _json_dumps, canonical_json, loads, long_digit_run
from tests.harness import RulesTable


def reference(value: Any) -> str:
    """DESIGN §3.2's definition, written out."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()  # past 64 bits too, where orjson refuses and json takes over
    | st.floats(allow_nan=False, allow_infinity=False)  # the API refuses NaN and Infinity
    | st.text()  # lone surrogates included
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
# the numbers json.dumps and orjson write differently, and the strings that only look like them
EDGES: list[Any] = [
    1e16, 1.5e-5, 1e-05, -2.5e-7, 1e22, 5e-324, 1.7976931348623157e308, 0.0001, 1e15, 123456.25, -0.0,
    2**63 - 1, 2**64 - 1, 2**64, -(2**63) - 1,
    "1e16", ":1e5", "0.00001", "\u2028\u2029\x7f\x00\x1f é 😀", "\ud800",
    {"é": 1, "e": 2, "Z": 3, "😀": 4, "\uffff": 5, "": 6},
]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(VALUES)
def test_any_json_value_is_written_as_canonical_json_writes_it(value: Any) -> None:
    assert canonical_json(value) == reference(value)


@pytest.mark.parametrize("value", EDGES, ids=repr)
def test_numbers_orjson_writes_differently_still_come_out_as_json_dumps_writes_them(value: Any) -> None:
    for wrapped in (value, [value], {"a": value, "b": [1, value]}):
        assert canonical_json(wrapped) == reference(wrapped)


@settings(max_examples=300, deadline=None)
@given(VALUES | st.sampled_from(EDGES))
def test_the_json_path_the_browser_always_takes_writes_what_json_dumps_writes(value: Any) -> None:
    """The browser has no orjson: every value goes to the C encoder built once, never to json.dumps."""
    for wrapped in (value, (value, [value]), {"k": (value,)}):
        assert _json_dumps(wrapped) == reference(wrapped)


def test_non_string_keys_are_written_as_json_dumps_writes_them() -> None:
    assert canonical_json({2: "b", 1: "a"}) == reference({2: "b", 1: "a"})


def test_outcomes_and_states_of_a_fold_are_written_byte_for_byte() -> None:
    table = RulesTable("epic")
    table.send({"type": "add_fortification", "id": "W1", "kind": "wall"})
    table.send({"type": "add_stand", "id": "a1", "stand_type": "infantry", "side": "attacker", "caf": 3,
                "speed_cm": 10, "location": {"kind": "at_foot", "section_id": "W1"}})  # fmt: skip
    table.send({"type": "give_order", "stand_id": "a1", "order": "charge"})
    table.send({"type": "advance_phase"})
    table.send({"type": "climb", "stand_id": "a1", "section_id": "W1", "dice": {"attacker": [9]}})
    for outcome in table.outcomes:
        assert canonical_json(outcome) == reference(outcome)
    assert canonical_json(table.state()) == reference(table.state())


def test_canonical_json_is_sorted_and_compact() -> None:
    assert canonical_json({"b": 1, "a": [1, {"d": None, "c": "é"}]}) == '{"a":[1,{"c":"é","d":null}],"b":1}'


class Side(enum.StrEnum):
    ATTACKER = "attacker"


def test_enum_members_are_written_as_json_dumps_writes_them() -> None:
    assert canonical_json({"side": Side.ATTACKER, "n": [Side.ATTACKER]}) == reference(
        {"side": Side.ATTACKER, "n": [Side.ATTACKER]}
    )


@dataclass
class Point:
    x: int


@pytest.mark.parametrize("value", [Point(x=1), datetime(2020, 1, 1, tzinfo=UTC), {"a": {1, 2}}], ids=repr)
def test_what_json_dumps_cannot_write_is_refused_as_json_dumps_refuses_it(value: Any) -> None:
    with pytest.raises(TypeError) as refused:
        canonical_json(value)
    with pytest.raises(TypeError) as by_json:
        reference(value)
    assert str(refused.value) == str(by_json.value)


def test_loads_reads_what_canonical_json_wrote() -> None:
    value = {"a": [1, 2.5, None, True], "b": {"c": "é"}}
    assert loads(canonical_json(value)) == value


@pytest.mark.parametrize("number", [2**64 + 1, -(2**70), 10**30, 9223372036854775807])
def test_loads_keeps_an_integer_past_64_bits_an_integer(number: int) -> None:
    # orjson would read it as a float: a digit run that long is read by json instead
    value = {"hp": number, "id": "w1"}
    assert loads(canonical_json(value)) == value and type(loads(canonical_json(value))["hp"]) is int
    assert loads(canonical_json(value).encode()) == value


@settings(max_examples=500)
@given(st.binary(max_size=80) | st.text(alphabet='0123456789 ,:-.e"', max_size=80).map(str.encode))
def test_a_long_digit_run_is_found_exactly_where_the_regex_finds_one(raw: bytes) -> None:
    assert long_digit_run(raw) == (re.search(rb"[0-9]{19}", raw) is not None)


def test_nineteen_digits_in_a_row_are_a_long_run_and_eighteen_are_not() -> None:
    assert long_digit_run(b'{"n":1234567890123456789}') and not long_digit_run(b'{"n":123456789012345678}')
    assert not long_digit_run(b'{"a":"123456789","b":1234567890}')  # two short runs are no long one
