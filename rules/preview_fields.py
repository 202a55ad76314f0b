"""A preview's tally: status, reasons and the result's scalar fields as weighted distributions."""

from __future__ import annotations

import dataclasses
import enum
import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rules.codec import JSON, JSON_NAME

MAX_FIELDS = 64  # dotted paths kept per preview, first seen first: bounds the answer
MAX_DEPTH = 4  # nesting walked into a result
MAX_ITEMS = 4  # items of a list walked into
MAX_VALUES = 50  # distinct values kept per categorical field; the rest count as "other"
MAX_BUCKETS = 200
SKIPPED = frozenset({"dice", "dice_used", "unused_dice"})  # the dice themselves decide nothing further
PERCENTILES = (5, 25, 50, 75, 95)


class Tally:
    """Probabilities accumulated path by path; a field's weights are unconditional (they sum to the
    probability that the path's result has that field)."""

    def __init__(self) -> None:
        self.status: dict[str, float] = {"applied": 0.0, "rejected": 0.0}
        self.reasons: dict[str, float] = {}
        self.fields: dict[str, dict[Any, float]] = {}

    def add(self, outcome: dict[str, JSON], p: float) -> None:
        status = str(outcome["status"])
        self.status[status] = self.status.get(status, 0.0) + p
        if status != "applied":
            reason = str(outcome["reason"])
            self.reasons[reason] = self.reasons.get(reason, 0.0) + p
            return
        result = outcome["result"]
        for path, value in leaves(result):
            values = self.fields.get(path)
            if values is None:
                if len(self.fields) >= MAX_FIELDS:
                    continue
                values = self.fields[path] = {}
            key = value if value in values or len(values) < MAX_VALUES else "other"
            values[key] = values.get(key, 0.0) + p

    def to_wire(self, exact: bool, n: int) -> dict[str, JSON]:
        se = None if exact else n
        return {
            "status": dict(self.status),
            "reasons": dict(self.reasons),
            "fields": {path: describe(values, se) for path, values in sorted(self.fields.items())},
        }


def leaves(value: Any) -> list[tuple[str, JSON]]:
    """The scalar leaves of a result, by dotted path (`roll.total`, `saves.0.saved`): those of its plain
    JSON (`rules.codec.encode`), read off the records themselves, so no sampled path encodes its result."""
    found: list[tuple[str, JSON]] = []
    _leaves(value, "", 0, found)
    return found


Walker = Callable[[Any, str, int, list[tuple[str, JSON]]], None]  # (value, path, depth, found)
_walkers: dict[type, Walker] = {}  # type -> its walker, chosen once: every applied path is tallied


def _leaves(value: Any, path: str, depth: int, found: list[tuple[str, JSON]]) -> None:
    # appends to one list: a generator per level cost twice as much
    kind = type(value)
    if kind in _SCALARS:
        if path:
            found.append((path, value))
        return
    walker = _walkers.get(kind)
    if walker is None:
        walker = _walkers[kind] = _walker_for(kind)
    walker(value, path, depth, found)


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _walker_for(kind: type) -> Walker:
    """What `encode` makes of this type, walked as `_leaves` walks plain JSON (the same cases, in order)."""
    if dataclasses.is_dataclass(kind):
        return _record_walker(kind)
    if issubclass(kind, enum.Enum):
        return lambda value, path, depth, found: _json_leaves(value.value, path, depth, found)
    if issubclass(kind, Mapping):
        return _mapping_leaves
    if issubclass(kind, (tuple, list, frozenset, set)):
        return _sequence_leaves
    return _json_leaves


def _record_walker(kind: type) -> Walker:
    """One straight-line function per record type, as `rules.codec` writes its encoder: each field read by
    name, the scalar test inline, the dotted path of each member built from its written name."""
    members = [(f.metadata.get(JSON_NAME, f.name), f.name) for f in dataclasses.fields(kind)]
    lines = [
        "def walk(value, path, depth, found):",
        "    if depth >= max_depth:",
        "        return",
        "    depth += 1",
        "    prefix = path + '.' if path else ''",
    ]
    for key, name in members:
        if key in SKIPPED:
            continue
        if not key:  # at the top its path is empty, which `_leaves` drops for a scalar as the JSON walk did
            lines += [f"    leaves(value.{name}, prefix, depth, found)"]
            continue
        lines += [
            f"    v = value.{name}",
            "    if type(v) in scalars:",
            f"        found.append((prefix + {key!r}, v))",
            "    else:",
            f"        leaves(v, prefix + {key!r}, depth, found)",
        ]
    scope: dict[str, Any] = {"max_depth": MAX_DEPTH, "scalars": _SCALARS, "leaves": _leaves}
    exec("\n".join(lines), scope)  # the record's own field names only
    walk: Walker = scope["walk"]
    return walk


def _mapping_leaves(
    value: Mapping[Any, Any], path: str, depth: int, found: list[tuple[str, JSON]], walk: Walker = _leaves
) -> None:
    if depth < MAX_DEPTH:
        # keyed by their text first, as `encode` writes them: two keys of one text are one member, the last
        for name, item in {str(key): item for key, item in value.items()}.items():
            if name not in SKIPPED:
                walk(item, f"{path}.{name}" if path else name, depth + 1, found)


def _sequence_leaves(
    value: Iterable[Any], path: str, depth: int, found: list[tuple[str, JSON]], walk: Walker = _leaves
) -> None:
    if depth < MAX_DEPTH:
        for index, item in enumerate(itertools.islice(value, MAX_ITEMS)):
            walk(item, f"{path}.{index}", depth + 1, found)


def _json_leaves(value: Any, path: str, depth: int, found: list[tuple[str, JSON]]) -> None:
    """A value `encode` passes through as it is (an enum's own value among them): walked as the tally walked
    plain JSON, its dicts and lists only, so whatever it holds is not encoded either."""
    if isinstance(value, dict):
        _mapping_leaves(value, path, depth, found, _json_leaves)
    elif isinstance(value, list):
        _sequence_leaves(value, path, depth, found, _json_leaves)
    elif path:
        found.append((path, value))


def describe(values: dict[Any, float], samples: int | None) -> dict[str, JSON]:
    """Numbers (with nulls aside) as a numeric summary, anything else as categorical probabilities."""
    numbers = {v: p for v, p in values.items() if _is_number(v)}
    if numbers and all(_is_number(v) or v is None for v in values):
        return _numeric(numbers, values.get(None, 0.0), samples)
    probabilities = {_label(v): p for v, p in values.items()}
    categorical: dict[str, JSON] = {"kind": "categorical", "p": dict(probabilities)}
    if samples is not None:
        categorical["se"] = {key: _se(p, samples) for key, p in probabilities.items()}
    return categorical


def _se(p: float, samples: int) -> float:
    """A proportion's standard error, of p as answered (12 decimals): a sure value's sum of 1/n weights
    (0.99999999999999x) would otherwise show a noise error of 5e-09 instead of 0."""
    p = round(p, 12)
    return math.sqrt(p * (1 - p) / samples)


def _numeric(numbers: dict[Any, float], null: float, samples: int | None) -> dict[str, JSON]:
    present = sum(numbers.values())
    ordered = sorted(numbers.items())
    mean = sum(v * p for v, p in ordered) / present
    summary: dict[str, JSON] = {
        "kind": "numeric",
        "p": present,
        "null": null,
        "min": ordered[0][0],
        "mean": mean,
        "max": ordered[-1][0],
        "percentiles": {str(q): _percentile(ordered, present * q / 100) for q in PERCENTILES},
        "histogram": _histogram(ordered),
    }
    if samples is not None:
        variance = sum(p * (v - mean) ** 2 for v, p in ordered) / present
        summary["mean_se"] = math.sqrt(variance / max(1.0, present * samples))
    return summary


def _percentile(ordered: list[tuple[Any, float]], mass: float) -> JSON:
    cumulative = 0.0
    for value, p in ordered:
        cumulative += p
        if cumulative >= mass - 1e-12:
            result: JSON = value
            return result
    last: JSON = ordered[-1][0]
    return last


def _histogram(ordered: list[tuple[Any, float]]) -> list[JSON]:
    """One bucket per value up to MAX_BUCKETS values, else MAX_BUCKETS buckets of equal width."""
    if len(ordered) <= MAX_BUCKETS:
        return [{"from": v, "to": v, "p": p} for v, p in ordered]
    low, high = ordered[0][0], ordered[-1][0]
    width = (high - low) / MAX_BUCKETS
    buckets = [0.0] * MAX_BUCKETS
    for value, p in ordered:
        buckets[min(MAX_BUCKETS - 1, int((value - low) / width))] += p
    return [
        {"from": low + i * width, "to": low + (i + 1) * width, "p": p} for i, p in enumerate(buckets) if p
    ]


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _label(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
