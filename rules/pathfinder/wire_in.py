"""Wire bodies into command records: target shapes such as {creature_id} or {square}, and field converters
compiled once per record type (parsing runs for every folded entry)."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeVar

from rules.codec import JSON
from rules.errors import Rejected

T = TypeVar("T")
Converter = Callable[[JSON], Any]
TARGET_KEYS = {"creature_id": "creature", "engine_id": "engine", "structure_id": "structure"}


def target_record(wire: JSON) -> JSON:
    """`{creature_id}`, `{engine_id}`, `{structure_id}` or `{square: {x, y}}` → the Target record's fields."""
    if wire is None:
        return None
    if not isinstance(wire, Mapping):
        raise Rejected("invalid_field")
    named = [key for key in ("square", *TARGET_KEYS) if key in wire]
    if len(named) != 1:  # a target names exactly one thing (spec §2: combinations are invalid_field)
        raise Rejected("invalid_field")
    if named[0] == "square":
        return {"kind": "square", "square": wire["square"]}
    return {"kind": TARGET_KEYS[named[0]], "id": wire[named[0]]}


def normalise(data: Mapping[str, JSON]) -> dict[str, JSON]:
    """Rewrite the target-shaped fields of a command body (`target`, `state.aimed_at`) into record form."""
    body = dict(data)
    if "target" in body:
        body["target"] = target_record(body["target"])
    state = body.get("state")
    if isinstance(state, Mapping) and "aimed_at" in state:
        body["state"] = {**state, "aimed_at": target_record(state["aimed_at"])}
    return body


def build(record: type[T], data: JSON) -> T:
    """A record from JSON: omitted optional fields take their default; a sent null stays null."""
    if not isinstance(data, Mapping):
        raise Rejected("invalid_field")
    kwargs: dict[str, Any] = {}
    for name, required, convert in _plan(typing.cast(type, record)):
        if name in data:
            kwargs[name] = convert(data[name])
        elif required:
            raise Rejected("invalid_field")
    return record(**kwargs)


@cache
def _plan(record: type) -> tuple[tuple[str, bool, Converter], ...]:
    hints = typing.get_type_hints(record)
    return tuple(
        (
            f.name,
            f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
            _converter(hints[f.name]),
        )
        for f in dataclasses.fields(record)
    )


def _converter(tp: Any) -> Converter:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None) and typing.get_origin(a) is not typing.Literal]
        convert = _converter(inner[0]) if inner else _same
        return lambda value: value if value is None or isinstance(value, str) else convert(value)
    if origin is tuple:
        item = _converter(args[0])
        return lambda value: tuple(item(v) for v in _listed(value))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return lambda value: build(tp, value)
    return _same


def _same(value: JSON) -> JSON:
    return value


def _listed(value: JSON) -> list[JSON]:
    if not isinstance(value, list | tuple):
        raise Rejected("invalid_field")
    return list(value)
