"""Plain-JSON encoding of frozen dataclasses, so states, commands and events cross the wire and the store."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

T = TypeVar("T")
JSON = Any  # a value made of dict, list, str, int, float, bool and None
JSON_NAME = "json"  # field metadata: the member name a record field is written under


def encode(value: Any) -> JSON:
    kind: type = type(value)
    if kind in _SCALARS:
        return value
    encoder = _ENCODERS.get(kind)
    if encoder is None:
        encoder = _ENCODERS[kind] = _encoder_for(kind)
    return encoder(value)


_SCALARS = frozenset({str, int, float, bool, type(None)})
# type -> its encoder, chosen once per type: encode runs on every event the fold applies
_ENCODERS: dict[type, Callable[[Any], JSON]] = {}


def _encoder_for(kind: type) -> Callable[[Any], JSON]:
    if dataclasses.is_dataclass(kind):
        fields = dataclasses.fields(kind)
        names = tuple(f.name for f in fields)
        # a field may be written under another name: `from`, a Python keyword, is `origin` in the record
        keys = tuple(f.metadata.get(JSON_NAME, f.name) for f in fields)
        return _record_encoder(keys, names)
    if issubclass(kind, enum.Enum):
        return lambda value: value.value
    if issubclass(kind, Mapping):
        return lambda value: {str(k): _item(v) for k, v in value.items()}
    if issubclass(kind, (tuple, list, frozenset, set)):
        return lambda value: [_item(v) for v in value]
    return lambda value: value


def _record_encoder(keys: tuple[str, ...], names: tuple[str, ...]) -> Callable[[Any], JSON]:
    """One straight-line function per record type, written once as dataclasses writes `__init__`: the
    dict literal of its fields, the scalar test inline (most fields are scalars, a call per field shows)."""
    reads = "".join(f"    v{n} = value.{name}\n" for n, name in enumerate(names))
    members = ", ".join(
        f"{key!r}: v{n} if type(v{n}) in scalars else encode(v{n})" for n, key in enumerate(keys)
    )
    scope: dict[str, Any] = {"scalars": _SCALARS, "encode": encode}
    exec(f"def encoder(value):\n{reads}    return {{{members}}}", scope)  # the record's own names only
    encoder: Callable[[Any], JSON] = scope["encoder"]
    return encoder


def _item(value: Any) -> JSON:
    return value if type(value) in _SCALARS else encode(value)


def decode(tp: Any, data: JSON) -> Any:
    """Build a value of type `tp` from plain JSON (data is trusted: it was validated on the way in)."""
    origin = get_origin(tp)
    if tp is Any or tp is object:
        return data
    if origin in (Union, types.UnionType):
        return _decode_union(get_args(tp), data)
    if origin is Literal:
        return data
    if origin in (tuple,):
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in data)
        return tuple(decode(a, v) for a, v in zip(args, data, strict=True))
    if origin in (list, typing.Sequence, _abc_sequence()):
        (arg,) = get_args(tp) or (Any,)
        return [decode(arg, v) for v in data]
    if origin in (frozenset,):
        (arg,) = get_args(tp)
        return frozenset(decode(arg, v) for v in data)
    if origin in (dict, Mapping, typing.Mapping, _abc_mapping()):
        _, val = get_args(tp) or (str, Any)
        return {k: decode(val, v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        kwargs = {name: decode(hint, data[key]) for name, key, hint in _members(tp) if key in data}
        return tp(**kwargs)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(data)
    if tp is float and isinstance(data, int):
        return float(data)
    return data


def _decode_union(options: tuple[Any, ...], data: JSON) -> Any:
    if data is None and type(None) in options:
        return None
    candidates = [o for o in options if o is not type(None)]
    if len(candidates) == 1:
        return decode(candidates[0], data)
    if isinstance(data, dict) and "kind" in data:
        for option in candidates:  # tagged union: the dataclass whose `kind` literal matches
            if isinstance(option, type) and dataclasses.is_dataclass(option):
                kind = get_args(_hints(option).get("kind"))
                if data["kind"] in kind:
                    return decode(option, data)
    for option in candidates:  # scalar unions such as int | str: keep the value as sent
        if isinstance(option, type) and isinstance(data, option):
            return data
    return decode(candidates[0], data)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def _members(cls: type) -> tuple[tuple[str, str, Any], ...]:
    """Each field's (name, member name it is written under, type): what `encode` wrote, read back."""
    hints = _hints(cls)
    return tuple((f.name, f.metadata.get(JSON_NAME, f.name), hints[f.name]) for f in dataclasses.fields(cls))


def _abc_sequence() -> Any:
    import collections.abc

    return collections.abc.Sequence


def _abc_mapping() -> Any:
    import collections.abc

    return collections.abc.Mapping
