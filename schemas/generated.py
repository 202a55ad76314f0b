"""Marshmallow schemas built from the rules' records, once per record at import time: the record is the
one declaration of a command, and this is its wire check (unknown=RAISE, strict integers, enums, ranges).

Class names carry the ruleset's prefix (`EpicFireSchema`): the name less `Schema` is the OpenAPI component
name, and `fire` exists in both rulesets.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from rules.build import ID_LENGTH
from rules.codec import encode
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
    described,
    plan,
    record_doc,
    spec_of,
    stated_default,
)
from schemas.base import StrictBoolean, StrictSchema, Unique, command_type
from schemas.union import TaggedUnion

INT_BOUND = 1_000_000


class UniqueBy(validate.Validator):
    """A list of objects in which `key` does not repeat (a creature contributes once per command)."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __call__(self, value: Any) -> Any:
        keys = [item.get(self.key) for item in value]
        if len(set(keys)) != len(keys):
            raise ValidationError(f"Each {self.key} may appear once.")
        return value


def command_schema(prefix: str, base: type[Schema], record: type) -> type[Schema]:
    """The schema of one command body: `type`, the record's fields, and the base's `dice`."""
    spec = spec_of(record)
    members: dict[str, Any] = {"type": command_type(spec.name), **_members(prefix, record)}
    members["__doc__"] = spec.doc
    members["__module__"] = __name__
    return type(f"{prefix}{record.__name__}Schema", (base,), members)


@cache
def record_schema(prefix: str, record: type, tag: str | None = None) -> type[Schema]:
    """The schema of a nested record, one class per record (shared by every field that holds it); `tag`
    names the member a tagged variant must send."""
    members: dict[str, Any] = _members(prefix, record)
    if tag is not None:
        values = [p.shape.values for p in plan(record) if p.name == tag and isinstance(p.shape, Choice)]
        members[tag] = fields.String(required=True, validate=validate.OneOf(values[0]))
    doc = record_doc(record)
    if doc:
        members["__doc__"] = doc
    members["__module__"] = __name__
    return type(f"{prefix}{record.__name__}Schema", (StrictSchema,), members)


def _members(prefix: str, record: type) -> dict[str, fields.Field[Any]]:
    return {p.name: _field(prefix, p) for p in plan(record)}


def _field(prefix: str, p: FieldPlan) -> fields.Field[Any]:
    metadata: dict[str, Any] = {}
    notes = described(p)
    if notes:
        metadata["description"] = notes
    if not p.required and stated_default(p):
        metadata["default"] = encode(p.default)
    nullable = isinstance(p.shape, Nullable) and not p.facts.omit_only
    options: dict[str, Any] = {"required": p.required, "allow_none": nullable, "metadata": metadata}
    shape = p.shape.inner if isinstance(p.shape, Nullable) else p.shape
    if p.facts.form is not None:
        return fields.Nested(record_schema(prefix, p.facts.form.record), **options)
    return _shaped(prefix, shape, p.facts, options)


def _shaped(prefix: str, shape: Shape, facts: Wire, options: Mapping[str, Any]) -> fields.Field[Any]:
    match shape:
        case Sentinel(inner) | Nullable(inner):
            return _shaped(prefix, inner, facts, options)
        case Scalar("bool"):
            return StrictBoolean(**options)
        case Scalar("int"):
            return fields.Integer(strict=True, validate=_int_checks(facts), **options)
        case Scalar():
            return fields.String(validate=_str_checks(facts), **options)
        case Choice():
            return fields.String(validate=validate.OneOf(shape.allowed(facts)), **options)
        case Seq(item):
            items = _shaped(prefix, item, facts, {"required": True})
            return fields.List(items, validate=_list_checks(facts), **_list_metadata(facts, options))
        case Rec(record):
            return fields.Nested(record_schema(prefix, record), **options)
        case Tagged(tag):
            schemas = {k: record_schema(prefix, v, tag) for k, v in shape.allowed(facts).items()}
            return TaggedUnion(tag=tag, variants=schemas, **options)


def _int_checks(facts: Wire) -> list[validate.Validator]:
    """A bound on every side the rules leave open: no Pathfinder or Epic statistic, coordinate or count
    comes near it, and with it no input makes the rules loop long or an output pass 2^53."""
    low = -INT_BOUND if facts.minimum is None else facts.minimum
    high = INT_BOUND if facts.maximum is None else facts.maximum
    checks: list[validate.Validator] = [validate.Range(min=low, max=high)]
    if facts.choices:
        checks.append(validate.OneOf(facts.choices))
    return checks


def _str_checks(facts: Wire) -> list[validate.Validator]:
    if facts.choices:
        return [validate.OneOf(facts.choices)]
    return [] if facts.text else [validate.Length(min=1, max=ID_LENGTH)]


def _list_checks(facts: Wire) -> list[validate.Validator]:
    checks: list[validate.Validator] = []
    if facts.min_items:
        checks.append(validate.Length(min=facts.min_items))
    if facts.unique:
        checks.append(Unique())
    if facts.unique_by:
        checks.append(UniqueBy(facts.unique_by))
    return checks


def _list_metadata(facts: Wire, options: Mapping[str, Any]) -> dict[str, Any]:
    if not facts.unique:
        return dict(options)
    return {**options, "metadata": {**options.get("metadata", {}), "uniqueItems": True}}


def options_schema(prefix: str, record: type) -> type[Schema]:
    """House rules, fixed at creation: an unknown name or a bad value is a 422 naming it."""
    members: dict[str, Any] = {**_members(prefix, record), "__module__": __name__}
    return type(f"{prefix}OptionsSchema", (StrictSchema,), members)
