"""Which result record each command type's applied outcome holds, and the members every result of a ruleset
carries besides (its `every_result`), read into JSON Schema components for the OpenAPI document.

Each command declares its record (`@command(result=...)`, rules/<ruleset>/commands.py); a command without
one fails at import, and the worked examples check every result against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.declare import spec_of
from rules.fold import BATTLE_CREATED, CONCLUDE, UNDO
from rules.registry import get_ruleset, ruleset_names
from schemas.records import JSONSchema, RecordSchemas

REF = "#/components/schemas/"


@dataclass(frozen=True, slots=True, kw_only=True)
class Concluded:
    """`conclude` (rules/fold.py): the revealed seed, so anyone can recompute every roll."""

    server_seed: str
    client_seed: str | None
    dice_commitment: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Created:
    """`battle_created` (version 1, rules/fold.py): what the battle was created with, its options the
    effective ones (the ruleset's defaults with the given ones over them)."""

    ruleset: str
    rules_version: str | None
    name: str | None
    dice_commitment: str
    client_seed: str | None
    options: Mapping[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class Undone:
    """`undo` (rules/undo.py): the version of the command it cancelled, as if it never happened."""

    undone_version: int


# the outcomes the fold writes itself, not a command's handler: no turn, round or dice come with them
BARE_RESULTS: dict[str, type] = {BATTLE_CREATED: Created, UNDO: Undone}


def _declared(ruleset: str) -> dict[str, type]:
    """Each command's result record as its `@command(result=...)` declares it, and `conclude`'s."""
    commands = get_ruleset(ruleset).commands
    declared = {name: spec_of(record).result for name, record in commands.items()}
    missing = sorted(name for name, result in declared.items() if result is None)
    if missing:
        raise TypeError(f"{ruleset} commands declare no result record: {', '.join(missing)}")
    return {**{name: result for name, result in declared.items() if result is not None}, CONCLUDE: Concluded}


RESULTS: dict[str, dict[str, type]] = {name: _declared(name) for name in ruleset_names()}


def result_component(ruleset: str, command: str | None = None) -> str:
    """`EpicResult`: any epic result; `EpicClimbResult`: the result of an applied epic `climb`."""
    kind = "".join(word.capitalize() for word in (command or "").split("_"))
    return f"{ruleset.capitalize()}{kind}Result"


def _record_component(ruleset: str) -> RecordSchemas:
    prefix = ruleset.capitalize()
    return RecordSchemas(lambda record: f"{prefix}Result{record.__name__.removeprefix(prefix)}")


@cache
def result_components(ruleset: str) -> dict[str, JSONSchema]:
    """Every component the ruleset's results need: one per record reached, one per command type (its record
    and the members every result carries), `battle_created`'s and `undo`'s (their record alone), and the
    ruleset's union of them."""
    records = _record_component(ruleset)
    every = REF + records.record(get_ruleset(ruleset).every_result)
    per_type: dict[str, JSONSchema] = {}
    for command, record in RESULTS[ruleset].items():
        per_type[result_component(ruleset, command)] = {
            "description": f"The `result` of an applied {ruleset} `{command}`: a {record.__name__} record "
            "and the members every result of the ruleset carries.",
            "allOf": [{"$ref": REF + records.record(record)}, {"$ref": every}],
        }
    for kind, record in BARE_RESULTS.items():
        per_type.update(_named(result_component(ruleset, kind), record))
    union = {
        "description": f"The `result` of an applied {ruleset} command: the outcome's `type` names which.",
        "anyOf": [{"$ref": REF + name} for name in per_type],
    }
    return {**records.components, **per_type, result_component(ruleset): union}


def _named(name: str, record: type) -> dict[str, JSONSchema]:
    """The record's own component under `name`: a one-part allOf around it made a generated client build
    its models twice."""
    alone = RecordSchemas(lambda _record: name)
    alone.record(record)
    return alone.components
