"""Which rulesets have wire schemas. A ruleset plugs in with a module named in SCHEMA_MODULES that exposes
`SCHEMAS = RulesetSchemas(...)`; its schema classes carry the ruleset's prefix (`PathfinderFireSchema`), since
the class name, less `Schema`, is the OpenAPI component name and `fire` exists in both rulesets."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from marshmallow import Schema

from rules.registry import UnknownRuleset, get_ruleset

SCHEMA_MODULES = {"epic": "schemas.epic", "pathfinder": "schemas.pathfinder"}


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
    return tuple(name for name in SCHEMA_MODULES if _available(name))


@cache
def ruleset_schemas(name: str) -> RulesetSchemas:
    if name not in SCHEMA_MODULES:
        raise UnknownRuleset(name)
    schemas: RulesetSchemas = importlib.import_module(SCHEMA_MODULES[name]).SCHEMAS
    return schemas


def _available(name: str) -> bool:
    try:
        ruleset_schemas(name)
        get_ruleset(name)
    except (ImportError, AttributeError):
        return False
    return True
