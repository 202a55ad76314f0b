"""OpenAPI documentation of command bodies: per ruleset a `oneOf` discriminated by `type`."""

from __future__ import annotations

from functools import cache
from typing import Any

from apispec import APISpec

from rules.codec import JSON
from rules.describe import describe
from rules.registry import get_ruleset
from schemas.commands import command_schemas
from schemas.registry import reason_component, schema_rulesets
from schemas.results import result_components
from schemas.views import OUTCOME_STATUS, OUTCOME_STATUSES

REF = "#/components/schemas/"


def union_name(ruleset: str) -> str:
    return f"{ruleset.capitalize()}Command"


def command_body() -> dict[str, Any]:
    """The JSON request body of `POST /battles/{id}/commands` (its media type object): the battle's ruleset
    decides which union applies, and a type such as `conclude` exists in every ruleset, so the rulesets are
    joined with anyOf."""
    union = {"anyOf": [{"$ref": REF + union_name(name)} for name in schema_rulesets()]}
    examples = {
        f"{ruleset}.{kind}": {"summary": f"{ruleset}: {kind}", "value": example}
        for ruleset in schema_rulesets()
        for kind, example in command_examples(ruleset).items()
    }
    return {"schema": union, "examples": examples}


@cache
def command_examples(ruleset: str) -> dict[str, JSON]:
    """Each command's example body with its `type`, as `GET /rulesets/{name}` shows it: the record's
    `@command(example=…)`, taken from the worked examples (EX-…)."""
    commands: dict[str, dict[str, JSON]] = describe(get_ruleset(ruleset))["commands"]
    return {kind: command["example"] for kind, command in commands.items()}


def register_commands(spec: APISpec) -> None:
    for ruleset in schema_rulesets():
        mapping: dict[str, str] = {}
        examples = command_examples(ruleset)
        for kind, schema in command_schemas(ruleset).items():
            name = schema.__name__.removesuffix("Schema")
            spec.components.schema(name, {"examples": [examples[kind]]}, schema=schema)
            mapping[kind] = REF + name
        union = {
            "description": f"A command of the {ruleset} ruleset.",
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
        }
        spec.components.schema(union_name(ruleset), union)
        spec.components.schema(reason_component(ruleset), reasons_schema(ruleset))
        for name, component in result_components(ruleset).items():
            spec.components.schema(name, component)
    # named, so a generated client has one `OutcomeStatus` enum (a nullable inline enum came out as three)
    spec.components.schema(OUTCOME_STATUS, {"type": "string", "enum": list(OUTCOME_STATUSES)})


def reasons_schema(ruleset: str) -> dict[str, Any]:
    """Every reason code a rejected outcome of the ruleset can carry, each with its meaning."""
    reasons = get_ruleset(ruleset).reasons
    return {
        "description": f"Why the {ruleset} rules refused a command.",
        "oneOf": [{"const": code, "description": meaning} for code, meaning in reasons.items()],
    }
