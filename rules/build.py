"""JSON → record, the one way for both rulesets (parse runs on every folded entry: plans compiled once).

The one rule for absent values: an omitted field takes its declared default; a sent `null` means None and
is accepted only where the field's type admits None and the field is not `omit_only`; a field whose
`default_from` names a sibling copies it when it is None, omitted or sent as null. A value the API's schema
would refuse is `invalid_field` here, for callers that skip the API; members the record does not declare
are ignored (the API refuses them first).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeVar

from rules.codec import JSON
from rules.declare import (
    Choice,
    FieldPlan,
    Nullable,
    Rec,
    Scalar,
    Sentinel,
    Seq,
    Shape,
    Tagged,
    Wire,
    plan,
)
from rules.errors import Rejected

T = TypeVar("T")
Converter = Callable[[JSON], Any]
MISSING = object()


def build(record: type[T], data: JSON) -> T:
    """A `record` from its wire JSON; `Rejected("invalid_field")` when it does not fit."""
    return typing.cast(T, _builder(typing.cast(type, record))(data))


@cache
def _builder(record: type) -> Converter:
    steps = tuple((p.name, p.required, _field(p)) for p in plan(record))
    defaults = {p.name: p.default for p in plan(record)}
    copies = tuple(
        (p.name, str(p.facts.default_from), defaults[str(p.facts.default_from)])
        for p in plan(record)
        if _copies(record, p)
    )

    def make(data: JSON) -> Any:
        if not isinstance(data, Mapping):
            raise Rejected("invalid_field")
        kwargs: dict[str, Any] = {}
        for name, required, convert in steps:
            value = data.get(name, MISSING)
            if value is not MISSING:
                try:
                    kwargs[name] = convert(value)
                except Rejected as refusal:
                    raise refusal.naming(field=name) from None  # the innermost field names it first
            elif required:
                raise Rejected("invalid_field", field=name)
        for name, source, fallback in copies:
            if kwargs.get(name) is None:
                kwargs[name] = kwargs.get(source, fallback)
        return record(**kwargs)

    return make


def _copies(record: type, p: FieldPlan) -> bool:
    """`default_from` names a sibling field (not a rule id): the omitted value copies it."""
    return p.facts.default_from in {q.name for q in plan(record)}


def _field(p: FieldPlan) -> Converter:
    convert = _converter(p.shape, p.facts)
    if p.facts.form is not None:
        form = p.facts.form
        inner = _builder(form.record)
        convert = _null_or(lambda value: form.to_record(inner(value)), isinstance(p.shape, Nullable))
    if p.facts.omit_only:
        return _refuse_null(convert)
    return convert


def _converter(shape: Shape, facts: Wire) -> Converter:
    match shape:
        case Nullable(inner):
            return _null_or(_converter(inner, facts), True)
        case Sentinel(inner):
            return _converter(inner, facts)
        case Scalar("bool"):
            return _check(lambda v: v is True or v is False)
        case Scalar("int"):
            return _check(_int_check(facts))
        case Scalar("str"):
            return _check(_str_check(facts))
        case Scalar():
            raise TypeError(shape)
        case Choice():
            allowed = frozenset(shape.allowed(facts))
            return _check(lambda v: isinstance(v, str) and v in allowed)
        case Seq(item):
            return _list(_converter(item, facts), facts)
        case Rec(record):
            return _builder(record)
        case Tagged(tag):
            return _tagged(tag, shape.allowed(facts))


def _null_or(convert: Converter, nullable: bool) -> Converter:
    if not nullable:
        return convert
    return lambda value: None if value is None else convert(value)


def _refuse_null(convert: Converter) -> Converter:
    def refuse(value: JSON) -> Any:
        if value is None:
            raise Rejected("invalid_field")
        return convert(value)

    return refuse


def _int_check(facts: Wire) -> Callable[[JSON], bool]:
    low, high, allowed = facts.minimum, facts.maximum, facts.choices

    def valid(v: JSON) -> bool:
        if not isinstance(v, int) or isinstance(v, bool):
            return False
        return (low is None or v >= low) and (high is None or v <= high) and (not allowed or v in allowed)

    return valid


def _str_check(facts: Wire) -> Callable[[JSON], bool]:
    if facts.choices:
        allowed = frozenset(facts.choices)
        return lambda v: isinstance(v, str) and v in allowed
    if facts.text:
        return lambda v: isinstance(v, str)
    return lambda v: isinstance(v, str) and 1 <= len(v) <= ID_LENGTH


ID_LENGTH = 128  # ids are 1–128 characters


def _list(item: Converter, facts: Wire) -> Converter:
    least, unique, unique_by = facts.min_items or 0, facts.unique, facts.unique_by

    def convert(value: JSON) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple) or len(value) < least:
            raise Rejected("invalid_field")
        items = tuple(item(v) for v in value)
        if unique and len(set(items)) != len(items):  # after converting: a raw item may be unhashable
            raise Rejected("invalid_field")
        if unique_by is not None and len({getattr(i, unique_by) for i in items}) != len(items):
            raise Rejected("invalid_field")
        return items

    return convert


def _tagged(tag: str, allowed: Mapping[str, type]) -> Converter:
    builders = {k: _builder(v) for k, v in allowed.items()}

    def convert(value: JSON) -> Any:
        chosen = value.get(tag) if isinstance(value, Mapping) else None
        if isinstance(chosen, str) and chosen in builders:
            return builders[chosen](value)
        raise Rejected("invalid_field")

    return convert


def _check(valid: Callable[[JSON], bool]) -> Converter:
    def convert(value: JSON) -> Any:
        if not valid(value):
            raise Rejected("invalid_field")
        return value

    return convert
