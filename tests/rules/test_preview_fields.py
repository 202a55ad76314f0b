"""A preview's tally and how it tells each field (rules/preview_fields.py), on weights worked out by hand:
what a VTT shows on hover is these numbers, so each summary is checked exactly."""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from rules.codec import JSON_NAME, encode
from rules.preview_fields import (
    MAX_BUCKETS,
    MAX_DEPTH,
    MAX_FIELDS,
    MAX_ITEMS,
    MAX_VALUES,
    SKIPPED,
    Tally,
    describe,
    leaves,
)


def applied(result: dict[str, object]) -> dict[str, object]:
    return {"status": "applied", "reason": None, "result": result}


def test_a_results_leaves_are_its_scalars_by_dotted_path_but_the_dice_and_what_lies_too_deep() -> None:
    result = {
        "roll": {"total": 9, "natural": 7},
        "saves": [{"saved": True}, {"saved": False}, {"saved": True}, {"saved": False}, {"saved": True}],
        "dice": [3, 4], "dice_used": {"a": [1]}, "unused_dice": {},
        "deep": {"a": {"b": {"c": {"d": 1}}}},
        "none": None,
    }  # fmt: skip
    assert leaves(result) == [
        ("roll.total", 9), ("roll.natural", 7),
        ("saves.0.saved", True), ("saves.1.saved", False), ("saves.2.saved", True), ("saves.3.saved", False),
        ("none", None),
    ]  # fmt: skip
    assert leaves(5) == []  # a bare scalar has no path


class Cover(enum.Enum):
    SOFT = "soft"


@dataclass(frozen=True, slots=True)
class Inner:
    origin: int = field(metadata={JSON_NAME: "from"})  # written under another name, as `from` is
    deep: object = None


@dataclass(frozen=True, slots=True)
class Outcome:
    hit: bool
    cover: Cover
    dice: tuple[int, ...]  # skipped, as the rolls themselves are
    hits: tuple[Inner, ...]
    squares: frozenset[int]
    by_id: dict[object, Inner]
    none: None = None


def test_a_records_leaves_are_those_of_its_plain_json_read_off_the_record_itself() -> None:
    """The tally reads a path's result off its record (no encoding per sampled path): every case `encode`
    writes (a renamed field, an enum, a tuple, a frozenset, a mapping of other keys) and `leaves` cuts (the
    dice, items past the fourth, depth past the fourth) lands as on the encoded result."""
    nested = Inner(origin=1, deep={"a": Inner(origin=2), "b": {"c": 3}})  # "a" and "b" lie at depth 4
    record = Outcome(
        hit=True,
        cover=Cover.SOFT,
        dice=(3, 4),
        hits=tuple(Inner(origin=n) for n in range(6)),
        squares=frozenset({7}),
        by_id={5: nested},
    )
    expected = [
        ("hit", True), ("cover", "soft"),
        *((f"hits.{n}.from", n) for n in range(4)), *((f"hits.{n}.deep", None) for n in range(4)),
        ("squares.0", 7), ("by_id.5.from", 1), ("none", None),
    ]  # fmt: skip
    assert sorted(leaves(record), key=str) == sorted(expected, key=str)
    assert leaves(record) == json_leaves(encode(record))  # and in the same order as the encoded result's


class Pair(enum.Enum):
    XY = ("x", "y")  # an enum whose value `encode` passes through as it is


@dataclass(frozen=True, slots=True)
class Unnamed:
    seen: object = None
    unnamed: object = field(default=None, metadata={JSON_NAME: ""})


@pytest.mark.parametrize(
    "value",
    [
        {1: "one", "1": "the same member, written last"},  # two keys of one text are one member
        Unnamed(seen=Pair.XY),  # the enum's tuple is a leaf, as the JSON walk saw it
        Unnamed(seen={"a": [Unnamed(seen=1)]}, unnamed=5),  # at the top the empty name has no path
        Unnamed(unnamed=Unnamed(seen=3)),  # ... and a record under it is walked as if at the top
        Unnamed(seen=Unnamed(unnamed=7)),  # below the top it is the path with a trailing dot
    ],
)
def test_the_rare_shapes_land_as_on_the_encoded_result_too(value: object) -> None:
    assert leaves(value) == json_leaves(encode(value))


def json_leaves(value: object, path: str = "", depth: int = 0) -> list[tuple[str, object]]:
    """What the tally walked before it read records: the encoded result's dicts and lists, anything else a
    leaf (the spec of `leaves`, kept here as it was written)."""
    if isinstance(value, dict):
        if depth >= MAX_DEPTH:
            return []
        return [
            leaf
            for key, item in value.items()
            if key not in SKIPPED
            for leaf in json_leaves(item, f"{path}.{key}" if path else str(key), depth + 1)
        ]
    if isinstance(value, list):
        if depth >= MAX_DEPTH:
            return []
        return [
            leaf
            for n, item in enumerate(value[:MAX_ITEMS])
            for leaf in json_leaves(item, f"{path}.{n}", depth + 1)
        ]
    return [(path, value)] if path else []


def test_a_tally_adds_each_paths_weight_to_its_status_its_reason_and_each_field() -> None:
    tally = Tally()
    tally.add(applied({"hit": True, "damage": 6}), 0.5)
    tally.add(applied({"hit": False}), 0.25)
    tally.add({"status": "rejected", "reason": "out_of_range", "result": None}, 0.125)
    tally.add({"status": "rejected", "reason": "out_of_range", "result": None}, 0.125)
    assert tally.status == {"applied": 0.75, "rejected": 0.25}
    assert tally.reasons == {"out_of_range": 0.25}
    assert tally.fields == {"hit": {True: 0.5, False: 0.25}, "damage": {6: 0.5}}


def test_a_tally_keeps_the_first_max_fields_paths_and_max_values_values_of_each() -> None:
    tally = Tally()
    tally.add(applied({f"f{n}": 1 for n in range(MAX_FIELDS + 5)}), 0.5)
    assert list(tally.fields) == [f"f{n}" for n in range(MAX_FIELDS)]
    tally.add(applied({"f0": 2, "f70": 3}), 0.25)  # a known field counts; a new one no longer joins
    assert tally.fields["f0"] == {1: 0.5, 2: 0.25} and "f70" not in tally.fields
    names = Tally()
    for n in range(MAX_VALUES + 3):
        names.add(applied({"who": f"c{n}"}), 0.01)
    assert len(names.fields["who"]) == MAX_VALUES + 1
    assert names.fields["who"]["other"] == pytest.approx(0.03)
    names.add(applied({"who": "c0"}), 0.01)  # a value kept already still counts as itself
    assert names.fields["who"]["c0"] == pytest.approx(0.02)


def test_numbers_are_told_by_their_mass_mean_range_percentiles_and_histogram() -> None:
    told = describe({1: 0.2, 2: 0.3, 3: 0.25, None: 0.25}, None)
    assert told == {
        "kind": "numeric",
        "p": 0.75,
        "null": 0.25,
        "min": 1,
        "mean": pytest.approx((1 * 0.2 + 2 * 0.3 + 3 * 0.25) / 0.75),
        "max": 3,
        # of the mass 0.75: 5 % and 25 % (0.0375, 0.1875) fall on 1, 50 % (0.375) on 2, 75 % and 95 % on 3
        "percentiles": {"5": 1, "25": 1, "50": 2, "75": 3, "95": 3},
        "histogram": [
            {"from": 1, "to": 1, "p": 0.2}, {"from": 2, "to": 2, "p": 0.3}, {"from": 3, "to": 3, "p": 0.25},
        ],
    }  # fmt: skip
    assert (
        describe({1: 0.5, 2: 0.5}, None)["percentiles"]["50"] == 1
    )  # a percentile reached exactly is that value


def test_a_sampled_number_also_tells_the_standard_error_of_its_mean() -> None:
    told = describe({0: 0.5, 10: 0.5}, 100)
    variance = 0.5 * 25 + 0.5 * 25  # about the mean 5
    assert told["mean"] == 5 and told["mean_se"] == pytest.approx(math.sqrt(variance / 100))
    assert "mean_se" not in describe({0: 0.5, 10: 0.5}, None)


def test_past_max_buckets_values_a_histogram_has_max_buckets_equal_buckets_empty_ones_left_out() -> None:
    values = {v: 1 / 401 for v in range(401)}  # 0..400: width 2, the top value in the last bucket
    histogram = describe(values, None)["histogram"]
    assert len(histogram) == MAX_BUCKETS
    assert histogram[0] == {"from": 0.0, "to": 2.0, "p": pytest.approx(2 / 401)}
    assert histogram[-1] == {"from": 398.0, "to": 400.0, "p": pytest.approx(3 / 401)}
    assert sum(b["p"] for b in histogram) == pytest.approx(1)
    sparse = describe({**{v: 0.001 for v in range(MAX_BUCKETS + 1)}, 1000: 0.799}, None)["histogram"]
    assert [(b["from"], b["to"]) for b in sparse[-2:]] == [(200.0, 205.0), (995.0, 1000.0)]  # width 5
    assert len(sparse) == 41 + 1  # 0..200 fill the first 41 buckets of 5; 1000 the last
    assert sparse[-1]["p"] == pytest.approx(0.799)


def test_anything_else_is_told_as_categories_and_their_standard_errors_when_sampled() -> None:
    told = describe({True: 0.25, False: 0.5, None: 0.25}, 400)
    assert told["kind"] == "categorical" and told["p"] == {"true": 0.25, "false": 0.5, "null": 0.25}
    assert told["se"] == {
        "true": pytest.approx(math.sqrt(0.25 * 0.75 / 400)),
        "false": pytest.approx(math.sqrt(0.5 * 0.5 / 400)),
        "null": pytest.approx(math.sqrt(0.25 * 0.75 / 400)),
    }
    assert describe({"hit": 1.0}, None) == {"kind": "categorical", "p": {"hit": 1.0}}
    assert describe({"hit": 0.99999999999999}, 10)["se"] == {"hit": 0.0}  # a sure value: no noise error
    assert describe({3: 0.5, "x": 0.5}, None)["kind"] == "categorical"  # numbers mixed with text


def test_to_wire_tells_each_field_with_a_standard_error_only_when_sampled() -> None:
    tally = Tally()
    tally.add(applied({"hit": True}), float(Fraction(1, 2)))
    tally.add(applied({"hit": False}), float(Fraction(1, 2)))
    assert tally.to_wire(True, 4)["fields"] == {
        "hit": {"kind": "categorical", "p": {"true": 0.5, "false": 0.5}}
    }
    sampled = tally.to_wire(False, 100)
    assert sampled["fields"]["hit"]["se"] == {"true": 0.05, "false": 0.05}
    assert (sampled["status"], sampled["reasons"]) == ({"applied": 1.0, "rejected": 0.0}, {})


def test_exactly_max_buckets_values_still_have_a_bucket_each() -> None:
    histogram = describe({v: 1 / MAX_BUCKETS for v in range(MAX_BUCKETS)}, None)["histogram"]
    assert [(b["from"], b["to"]) for b in histogram] == [(v, v) for v in range(MAX_BUCKETS)]


def test_the_standard_errors_are_of_the_numbers_as_answered() -> None:
    """p as answered has 12 decimals: 1 - 3e-12 is not yet 1; a mean's error is over the samples that gave
    a number (0.75 of 100 here), not over all."""
    assert describe({"hit": 1 - 3e-12}, 10)["se"]["hit"] == pytest.approx(math.sqrt(3e-12 / 10), rel=1e-3)
    told = describe({0: 0.375, 10: 0.375, None: 0.25}, 100)
    assert told["mean"] == 5 and told["mean_se"] == pytest.approx(math.sqrt(25 / 75))
