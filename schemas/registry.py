"""The wire schemas of every ruleset, generated from its command records (schemas/generated.py)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from marshmallow import Schema

from rules.registry import RULESET_MODULES, UnknownRuleset, get_ruleset
from schemas.base import StrictSchema
from schemas.dice import Dice
from schemas.generated import command_schema, options_schema


@dataclass(frozen=True, slots=True, kw_only=True)
class RulesetSchemas:
    ruleset: str
    # the common base of the ruleset's command schemas: it carries the `dice` field; `conclude` is built on it
    base: type[Schema]
    options: type[Schema]
    commands: tuple[type[Schema], ...]


@cache
def schema_rulesets() -> tuple[str, ...]:
    """Rulesets a battle can be created with: both their schemas and their rules are importable."""
    return tuple(name for name in RULESET_MODULES if _available(name))


@cache
def ruleset_schemas(name: str) -> RulesetSchemas:
    if name not in RULESET_MODULES:
        raise UnknownRuleset(name)
    ruleset = get_ruleset(name)
    prefix = name.capitalize()
    base = type(f"{prefix}CommandSchema", (StrictSchema,), {"dice": Dice(ruleset=name)})
    return RulesetSchemas(
        ruleset=name,
        base=base,
        options=options_schema(prefix, ruleset.options),
        commands=tuple(command_schema(prefix, base, record) for record in ruleset.commands.values()),
    )


def _available(name: str) -> bool:
    try:
        ruleset_schemas(name)
        get_ruleset(name)
    except (ImportError, AttributeError):
        return False
    return True


def reason_component(ruleset: str) -> str:
    """The OpenAPI component listing a ruleset's reason codes with their meanings."""
    return f"{ruleset.capitalize()}ReasonCode"
