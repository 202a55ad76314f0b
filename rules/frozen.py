"""`replace`: dataclasses.replace for the rules' frozen slotted records, at a third of its cost.

The fold copies a record for almost every event it applies (an engine has some forty fields), and
dataclasses.replace walks `fields()`, builds keyword arguments and runs the frozen `__init__` each time.
Here each slot is copied by its own descriptor, then the changes are set: the same record, equal and
hashing alike. Records with a `__post_init__` or a field outside `__init__` go through dataclasses.replace,
whose semantics (derived fields recomputed) they need. Type checkers see dataclasses.replace itself, so
every call is still checked against the record's fields."""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

Copier = tuple[Callable[[Any], tuple[Any, ...]], tuple[Callable[[Any, Any], None], ...]] | None
_copiers: dict[type, Copier] = {}

if TYPE_CHECKING:
    from dataclasses import replace as replace
else:

    def replace(record: Any, /, **changes: Any) -> Any:
        kind = type(record)
        copier = _copiers.get(kind, False)
        if copier is False:
            copier = _copiers[kind] = _copier(kind)
        if copier is None:
            return dataclasses.replace(record, **changes)
        read, writers = copier
        new = object.__new__(kind)
        for write, value in zip(writers, read(record), strict=True):
            write(new, value)
        for name, value in changes.items():
            if name not in kind.__dataclass_fields__:
                raise TypeError(f"{kind.__name__} has no field {name!r}")
            object.__setattr__(new, name, value)  # a frozen record refuses plain setattr
        return new


def _copier(kind: type) -> Copier:
    fields = dataclasses.fields(kind)
    if hasattr(kind, "__post_init__") or not hasattr(kind, "__slots__") or not all(f.init for f in fields):
        return None
    if len(fields) < 2:  # attrgetter of one name returns the value, not a 1-tuple
        return None
    names = tuple(f.name for f in fields)
    return operator.attrgetter(*names), tuple(getattr(kind, name).__set__ for name in names)
