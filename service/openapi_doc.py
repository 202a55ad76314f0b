"""OpenAPI documentation of command bodies: per ruleset a `oneOf` discriminated by `type`."""

from __future__ import annotations

from typing import Any

from apispec import APISpec

from schemas.commands import command_schemas
from schemas.registry import schema_rulesets

REF = "#/components/schemas/"


def union_name(ruleset: str) -> str:
    return f"{ruleset.capitalize()}Command"


def command_body() -> dict[str, Any]:
    """The request body of `POST /battles/{id}/commands`: the battle's ruleset decides which union applies,
    and a type such as `conclude` exists in every ruleset, so the rulesets are joined with anyOf."""
    union = {"anyOf": [{"$ref": REF + union_name(name)} for name in schema_rulesets()]}
    return {"required": True, "content": {"application/json": {"schema": union}}}


def register_commands(spec: APISpec) -> None:
    for ruleset in schema_rulesets():
        mapping: dict[str, str] = {}
        for kind, schema in command_schemas(ruleset).items():
            name = schema.__name__.removesuffix("Schema")
            spec.components.schema(name, schema=schema)
            mapping[kind] = REF + name
        union = {
            "description": f"A command of the {ruleset} ruleset.",
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
        }
        spec.components.schema(union_name(ruleset), union)
