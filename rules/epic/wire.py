"""Command records from wire JSON, and their field description: one declaration serves parse and describe."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from rules.codec import JSON, encode
from rules.errors import Rejected

T = TypeVar("T")


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
    hints = _hints(typing.cast(type, cls))
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        value = data.get(f.name)
        if value is None:
            if _required(f):
                raise Rejected("invalid_field")
            continue
        kwargs[f.name] = _convert(hints[f.name], value, f.metadata)
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


def _convert(tp: Any, value: JSON, meta: Mapping[str, int]) -> Any:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        options = [a for a in get_args(tp) if a is not type(None)]
        if len(options) == 1:
            return _convert(options[0], value, meta)
        return _convert_tagged(options, value)
    if origin is Literal:
        if isinstance(value, str) and value in get_args(tp):
            return value
    elif origin is tuple:
        if isinstance(value, list | tuple) and len(value) >= meta.get("minItems", 0):
            return tuple(_convert(get_args(tp)[0], item, {}) for item in value)
    elif tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool) and _in_range(value, meta):
            return value
    elif tp is str:
        if isinstance(value, str):
            return value
    elif dataclasses.is_dataclass(tp):
        return build(tp, value)  # type: ignore[arg-type]
    raise Rejected("invalid_field")


def _convert_tagged(options: list[Any], value: JSON) -> Any:
    if isinstance(value, Mapping):
        for option in options:
            if value.get("kind") in get_args(_hints(option)["kind"]):
                return build(option, value)
    raise Rejected("invalid_field")


def _in_range(value: int, meta: Mapping[str, int]) -> bool:
    return meta.get("minimum", value) <= value <= meta.get("maximum", value)


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
