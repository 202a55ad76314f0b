"""Command records from wire JSON, and their field description: one declaration serves parse and describe."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from rules.codec import JSON, encode
from rules.errors import Rejected

T = TypeVar("T")
Converter = Callable[[JSON], Any]
# per field: name, required, converter (built once per record type: parsing runs for every folded entry)
Plan = tuple[tuple[str, bool, Converter], ...]


def spec(
    *, minimum: int | None = None, maximum: int | None = None, min_items: int | None = None
) -> dict[str, int]:
    """Field metadata: the ranges the API's schema enforces, re-checked here for direct callers."""
    bounds = {"minimum": minimum, "maximum": maximum, "minItems": min_items}
    return {key: value for key, value in bounds.items() if value is not None}


def build(cls: type[T], data: JSON) -> T:
    """A `cls` from JSON; omitted or null optional fields take their declared default."""
    if not isinstance(data, Mapping):
        raise Rejected("invalid_field")
    kwargs: dict[str, Any] = {}
    for name, required, convert in _plan(typing.cast(type, cls)):
        value = data.get(name)
        if value is not None:
            kwargs[name] = convert(value)
        elif required:
            raise Rejected("invalid_field")
    return cls(**kwargs)


def describe_record(cls: type) -> dict[str, JSON]:
    """A JSON-Schema-like description of a record's fields."""
    hints = _hints(cls)
    properties: dict[str, JSON] = {}
    required: list[str] = []
    for f in dataclasses.fields(cls):
        schema = _schema(hints[f.name], f.metadata)
        if _required(f):
            required.append(f.name)
        elif f.default is not dataclasses.MISSING:
            schema["default"] = encode(f.default)
        properties[f.name] = schema
    return {"type": "object", "properties": properties, "required": required}


@cache
def _plan(cls: type) -> Plan:
    hints = _hints(cls)
    return tuple(
        (f.name, _required(f), _converter(hints[f.name], f.metadata)) for f in dataclasses.fields(cls)
    )


def _converter(tp: Any, meta: Mapping[str, int]) -> Converter:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        options = [a for a in get_args(tp) if a is not type(None)]
        return _converter(options[0], meta) if len(options) == 1 else _tagged(options)
    if origin is Literal:
        return _check(lambda v: isinstance(v, str) and v in get_args(tp))
    if origin is tuple:
        item = _converter(get_args(tp)[0], {})
        least = meta.get("minItems", 0)
        return _then(
            lambda v: isinstance(v, list | tuple) and len(v) >= least, lambda v: tuple(item(i) for i in v)
        )
    if tp is bool:
        return _check(lambda v: isinstance(v, bool))
    if tp is int:
        low, high = meta.get("minimum"), meta.get("maximum")
        return _check(lambda v: _is_int(v) and (low is None or v >= low) and (high is None or v <= high))
    if tp is str:
        return _check(lambda v: isinstance(v, str))
    return lambda v: build(tp, v)


def _tagged(options: list[Any]) -> Converter:
    """A union of records told apart by their `kind` literal (locations)."""
    by_kind = {kind: option for option in options for kind in get_args(_hints(option)["kind"])}

    def convert(value: JSON) -> Any:
        if isinstance(value, Mapping) and value.get("kind") in by_kind:
            return build(by_kind[value["kind"]], value)
        raise Rejected("invalid_field")

    return convert


def _check(valid: Callable[[JSON], bool]) -> Converter:
    return _then(valid, lambda v: v)


def _then(valid: Callable[[JSON], bool], make: Converter) -> Converter:
    def convert(value: JSON) -> Any:
        if not valid(value):
            raise Rejected("invalid_field")
        return make(value)

    return convert


def _is_int(value: JSON) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _schema(tp: Any, meta: Mapping[str, int]) -> dict[str, JSON]:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        options = [a for a in get_args(tp) if a is not type(None)]
        if len(options) == 1:
            return {**_schema(options[0], meta), "nullable": True}
        return {"oneOf": [describe_record(o) for o in options], "discriminator": "kind"}
    if origin is Literal:
        return {"type": "string", "enum": list(get_args(tp))}
    if origin is tuple:
        return {"type": "array", "items": _schema(get_args(tp)[0], {}), **meta}
    if dataclasses.is_dataclass(tp):
        return describe_record(tp)  # type: ignore[arg-type]
    names = {bool: "boolean", int: "integer", str: "string"}
    return {"type": names[tp], **meta}


def _required(f: dataclasses.Field[Any]) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)
