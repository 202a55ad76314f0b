"""The rules' frozen slotted records on the fold's hot path: `replace` (dataclasses.replace at a third of its
cost), `by_id` (the record with an id, in a tuple kept in creation order) and `with_id` (that tuple with
one record changed).

The fold copies a record for almost every event it applies (an engine has some forty fields), and
dataclasses.replace walks `fields()`, builds keyword arguments and runs the frozen `__init__` each time.
Here each slot is copied by its own descriptor, then the changes are set the same way: the same record,
equal and hashing alike. Records with a `__post_init__` or a field outside `__init__` go through
dataclasses.replace, whose semantics (derived fields recomputed) they need. Type checkers see
dataclasses.replace itself, so every call is still checked against the record's fields."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar


class Identified(Protocol):
    @property
    def id(self) -> str: ...


R = TypeVar("R", bound=Identified)

Setter = Callable[[Any, Any], None]  # a slot's own descriptor: (record, value)
# record type -> (record -> a new record with the same field values, field name -> its setter)
Copier = tuple[Callable[[Any], Any], dict[str, Setter]] | None
_copiers: dict[type, Copier] = {}

if TYPE_CHECKING:
    from dataclasses import replace as replace
else:

    def replace(record: Any, /, **changes: Any) -> Any:
        kind = type(record)
        copy = _copiers.get(kind, False)
        if copy is False:
            copy = _copiers[kind] = _copier(kind)
        if copy is None:
            return dataclasses.replace(record, **changes)
        duplicate, setters = copy
        new = duplicate(record)
        for name, value in changes.items():
            setter = setters.get(name)
            if setter is None:
                raise TypeError(f"{kind.__name__} has no field {name!r}")
            setter(new, value)  # the slot's descriptor: a frozen record refuses plain setattr
        return new


def _copier(kind: type) -> Copier:
    """One straight-line function per record type, as dataclasses writes `__init__`: each slot's own
    descriptor sets it, so the frozen `__setattr__` is not in the way and no loop runs per field."""
    fields = dataclasses.fields(kind)
    # each field a slot, or an attribute of a class compiled by mypyc: a descriptor on the class that sets it
    slotted = all(hasattr(getattr(kind, f.name, None), "__set__") for f in fields)
    if hasattr(kind, "__post_init__") or not slotted or not all(f.init for f in fields):
        return None
    setters: dict[str, Setter] = {f.name: getattr(kind, f.name).__set__ for f in fields}
    # the class's own __new__: a compiled class refuses object.__new__, and neither runs __init__
    scope: dict[str, Any] = {"new": kind.__new__, "kind": kind}
    lines = ["def copy(record):", "    made = new(kind)"]
    for n, f in enumerate(fields):
        scope[f"set{n}"] = setters[f.name]
        lines.append(f"    set{n}(made, record.{f.name})")
    lines.append("    return made")
    exec("\n".join(lines), scope)  # code built from the record's own field names only
    copy: Callable[[Any], Any] = scope["copy"]
    return copy, setters


def with_id(records: tuple[R, ...], ident: str, change: Callable[[R], R]) -> tuple[R, ...]:
    """`records` with the record of that id changed (ids are unique); the others are the same objects, copied
    by slicing rather than tested one by one."""
    for n, record in enumerate(records):
        if record.id == ident:
            return (*records[:n], change(record), *records[n + 1 :])
    return records


def by_id(records: tuple[R, ...], ident: str) -> R | None:
    """The first record with that id; a plain loop, twice as fast as next() over a generator."""
    for record in records:
        if record.id == ident:
            return record
    return None
