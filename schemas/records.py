"""Frozen records → JSON Schema as `rules.codec.encode` writes them: every field present, a `json` metadata
name renaming one, unions of records as `anyOf`; each record one named component."""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, Union, get_args, get_origin

from rules.codec import JSON_NAME
from rules.declare import record_doc

JSONSchema = dict[str, Any]
_SCALARS: dict[Any, JSONSchema] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    bool: {"type": "boolean"},
    float: {"type": "number"},
}
_SEQUENCES = (tuple, list, frozenset, set, typing.Sequence, collections.abc.Sequence)
_MAPPINGS = (dict, Mapping, typing.Mapping)


class RecordSchemas:
    """Collects a component per record reached; `ref` names it as `ref_prefix + name(record)`."""

    def __init__(self, name: Callable[[type], str], ref_prefix: str = "#/components/schemas/") -> None:
        self.name, self.ref_prefix = name, ref_prefix
        self.components: dict[str, JSONSchema] = {}
        self._owners: dict[str, type] = {}

    def of(self, tp: Any) -> JSONSchema:
        """The schema of a value of type `tp`."""
        origin = get_origin(tp)
        if tp in _SCALARS:
            return dict(_SCALARS[tp])
        if tp is Any or tp is object or tp is type(None):
            return {} if tp is not type(None) else {"type": "null"}
        if origin in (Union, types.UnionType):
            return self._union(get_args(tp))
        if origin is Literal:
            return _literal(get_args(tp))
        if origin in _SEQUENCES or tp in _SEQUENCES:
            return self._sequence(tp)
        if origin in _MAPPINGS or tp in _MAPPINGS:
            args = get_args(tp)
            return {"type": "object", "additionalProperties": self.of(args[1]) if args else {}}
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return {"$ref": self.ref_prefix + self.record(tp)}
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return _literal(tuple(member.value for member in tp))
        raise TypeError(f"no JSON Schema for {tp!r}")

    def record(self, record: type) -> str:
        """Registers the record's component (once) and returns its name."""
        name = self.name(record)
        owner = self._owners.setdefault(name, record)
        if owner is not record:
            raise ValueError(f"{record!r} and {owner!r} would share the component name {name}")
        if name not in self.components:
            self.components[name] = {}  # a placeholder first: a record may hold itself
            self.components[name] = self._object(record)
        return name

    def _object(self, record: type) -> JSONSchema:
        hints = typing.get_type_hints(record)
        fields = dataclasses.fields(record)
        properties = {f.metadata.get(JSON_NAME, f.name): self.of(hints[f.name]) for f in fields}
        schema: JSONSchema = {"type": "object", "properties": properties, "required": list(properties)}
        doc = record_doc(record)
        if doc:
            schema["description"] = doc
        return schema

    def _union(self, options: tuple[Any, ...]) -> JSONSchema:
        others = [o for o in options if o is not type(None)]
        if set(others) == {int, float}:  # an exact quantity: a JSON number either way
            others = [float]
        inner = self.of(others[0]) if len(others) == 1 else {"anyOf": [self.of(o) for o in others]}
        if len(others) == len(options):
            return inner
        if set(inner) == {"type"} and isinstance(inner["type"], str):
            return {"type": [inner["type"], "null"]}
        return {"anyOf": [*inner.get("anyOf", [inner]), {"type": "null"}]}

    def _sequence(self, tp: Any) -> JSONSchema:
        args = get_args(tp)
        schema: JSONSchema = {"type": "array"}
        if get_origin(tp) is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
            schema.update(prefixItems=[self.of(a) for a in args], minItems=len(args), maxItems=len(args))
            return schema
        schema["items"] = self.of(args[0]) if args else {}
        if get_origin(tp) in (frozenset, set):
            schema["uniqueItems"] = True
        return schema


def _literal(values: tuple[Any, ...]) -> JSONSchema:
    kinds = {type(v) for v in values}
    schema: JSONSchema = {"enum": list(values)}
    if len(kinds) == 1 and next(iter(kinds)) in _SCALARS:
        schema = {**_SCALARS[next(iter(kinds))], **schema}
    return schema
