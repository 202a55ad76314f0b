"""Record → JSON Schema 2020-12, for `GET /rulesets/{name}`: a command body exactly as the API accepts it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.build import ID_LENGTH
from rules.codec import JSON, encode
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

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def command_schema(record: type, dice: Mapping[str, JSON]) -> dict[str, JSON]:
    """A command's whole body: `type`, its fields and the `dice` object (`dice` is the slots' schema)."""
    spec = spec_of(record)
    body = record_schema(record)
    properties = {"type": {"const": spec.name}, **body["properties"], "dice": dice}
    notes = " ".join(n for n in (spec.doc, body.get("description")) if n)
    return {
        **body,
        "$schema": DIALECT,
        "title": spec.name,
        "description": notes,
        "$comment": "integers are JSON integers: 1.0 is refused; ids are 1-128 characters",
        "properties": properties,
        "required": ["type", *body["required"]],
    }


def record_schema(record: type, tag: str | None = None) -> dict[str, Any]:
    """An object with the record's fields; `tag` names the discriminator a tagged variant requires."""
    properties: dict[str, JSON] = {}
    required: list[str] = []
    for p in plan(record):
        properties[p.name] = field_schema(p)
        if p.name == tag:  # a variant names itself: required, with no default to fall back on
            properties[p.name] = {k: v for k, v in properties[p.name].items() if k != "default"}
        if p.required or p.name == tag:
            required.append(p.name)
    schema: dict[str, Any] = {"type": "object", "properties": properties, "required": required}
    schema["additionalProperties"] = False
    doc = record_doc(record)
    if doc:
        schema["description"] = doc
    return schema


def field_schema(p: FieldPlan) -> dict[str, JSON]:
    facts = p.facts
    shape = p.shape
    if facts.form is not None:
        form: dict[str, JSON] = record_schema(facts.form.record)
        schema = _nullable(form) if isinstance(shape, Nullable) else form
    elif facts.omit_only and isinstance(shape, Nullable):
        schema = shape_schema(shape.inner, facts)
    else:
        schema = shape_schema(shape, facts)
    notes = described(p)
    if notes:
        schema = {**schema, "description": notes}
    if not p.required and stated_default(p):
        schema = {**schema, "default": encode(p.default)}
    return schema


def shape_schema(shape: Shape, facts: Wire) -> dict[str, JSON]:
    match shape:
        case Nullable(inner):
            return _nullable(shape_schema(inner, facts))
        case Sentinel(inner):
            return shape_schema(inner, facts)
        case Scalar("bool"):
            return {"type": "boolean"}
        case Scalar("int"):
            return _int(facts)
        case Scalar():
            return _str(facts)
        case Choice():
            return {"type": "string", "enum": list(shape.allowed(facts))}
        case Seq(item):
            return _list(shape_schema(item, facts), facts)
        case Rec(record):
            return record_schema(record)
        case Tagged(tag):
            return {"oneOf": [record_schema(v, tag) for v in shape.allowed(facts).values()]}


def _nullable(schema: dict[str, JSON]) -> dict[str, JSON]:
    return {"anyOf": [schema, {"type": "null"}]}


def _int(facts: Wire) -> dict[str, JSON]:
    schema: dict[str, JSON] = {"type": "integer"}
    if facts.minimum is not None:
        schema["minimum"] = facts.minimum
    if facts.maximum is not None:
        schema["maximum"] = facts.maximum
    if facts.choices:
        schema["enum"] = list(facts.choices)
    return schema


def _str(facts: Wire) -> dict[str, JSON]:
    if facts.choices:
        return {"type": "string", "enum": list(facts.choices)}
    if facts.text:
        return {"type": "string"}
    return {"type": "string", "minLength": 1, "maxLength": ID_LENGTH}


def _list(items: dict[str, JSON], facts: Wire) -> dict[str, JSON]:
    schema: dict[str, JSON] = {"type": "array", "items": items}
    if facts.min_items:
        schema["minItems"] = facts.min_items
    if facts.unique:
        schema["uniqueItems"] = True
    return schema
