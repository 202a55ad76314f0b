"""Command bodies: dispatch on `type` to the battle's ruleset's schemas; `conclude` and `undo` are in every
ruleset."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from marshmallow import Schema, ValidationError, validate

from rules.fold import CONCLUDE, UNDO
from schemas.base import command_type
from schemas.registry import ruleset_schemas


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadedCommand:
    """A body that fits its schema: `data` is the command's fields as sent, without `type` and `dice`."""

    type: str
    data: dict[str, Any]
    dice: dict[str, Any]


def command_name(schema: type[Schema]) -> str:
    """The `type` value a command schema accepts."""
    validator = schema._declared_fields["type"].validators[0]
    assert isinstance(validator, validate.OneOf)
    return str(next(iter(validator.choices)))


@cache
def command_schemas(ruleset: str) -> dict[str, type[Schema]]:
    """Every command schema of a ruleset by type, `conclude` and `undo` last."""
    schemas = ruleset_schemas(ruleset)
    by_type = {command_name(cls): cls for cls in schemas.commands}
    by_type[CONCLUDE] = _conclude_schema(schemas.base)
    by_type[UNDO] = _fold_schema(schemas.base, UNDO, "UndoSchema", UNDO_DOC)
    return by_type


@cache
def _instances(ruleset: str) -> dict[str, Schema]:
    return {name: cls() for name, cls in command_schemas(ruleset).items()}


def load_command(ruleset: str, body: Any) -> LoadedCommand:
    """Validate a command body against the ruleset's schemas; ValidationError (a 422) if it does not fit."""
    if not isinstance(body, dict):
        raise ValidationError({"_schema": ["A command is a JSON object."]})
    schemas = _instances(ruleset)
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in schemas:
        message = "Missing data for required field." if kind is None else "Unknown command type; one of: {}."
        raise ValidationError({"type": [message.format(", ".join(schemas))]})
    loaded: dict[str, Any] = schemas[kind].load(body)
    loaded.pop("type")
    dice = loaded.pop("dice", None) or {}
    return LoadedCommand(type=kind, data=loaded, dice=dice)


UNDO_DOC = "Cancels the latest applied command not undone yet; the log keeps both; no fields."


def _conclude_schema(base: type[Schema]) -> type[Schema]:
    doc = "Ends the battle and reveals the dice seed; no fields."
    return _fold_schema(base, CONCLUDE, "ConcludeSchema", doc)


def _fold_schema(base: type[Schema], kind: str, suffix: str, doc: str) -> type[Schema]:
    """A command the fold handles for every ruleset: `type` (and `dice`) only."""
    name = base.__name__.replace("CommandSchema", suffix)
    return type(name, (base,), {"type": command_type(kind), "__doc__": doc})
