"""`GET /rulesets/{name}`, one shape for every ruleset, read off the declarations: each command's body as
JSON Schema 2020-12 with its phases and dice, the dice slots, the options with defaults, the reason codes
with their meanings, and what only that ruleset describes (`extra`, e.g. the pathfinder catalog)."""

from __future__ import annotations

from typing import Any

from rules.codec import JSON, encode
from rules.declare import plan, spec_of
from rules.dice import MAX_VALUES_PER_SLOT
from rules.fold import CONCLUDE, UNDO
from rules.jsonschema import DIALECT, command_schema, field_schema
from rules.ruleset import Ruleset


def describe(ruleset: Ruleset[Any, Any, Any]) -> dict[str, JSON]:
    dice = dice_schema(ruleset)
    return {
        "name": ruleset.name,
        "title": ruleset.title,
        "rules_version": ruleset.rules_version,
        "phases": list(ruleset.phases),
        "commands": {
            **{name: _command(ruleset, record, dice) for name, record in ruleset.commands.items()},
            CONCLUDE: _conclude(dice),
            UNDO: _undo(dice),
        },
        "dice_slots": {name: _slot(ruleset, name) for name in ruleset.slots},
        "options": _options(ruleset),
        "reason_codes": dict(ruleset.reasons),
        **ruleset.extra(),
    }


def dice_schema(ruleset: Ruleset[Any, Any, Any]) -> dict[str, JSON]:
    """The `dice` member every command takes: slot → one value or a list."""
    die: dict[str, JSON] = {"type": "integer", "minimum": 1}
    values = {"oneOf": [die, {"type": "array", "items": die, "maxItems": MAX_VALUES_PER_SLOT}]}
    return {
        "type": "object",
        "properties": dict.fromkeys(ruleset.slots, values),
        "additionalProperties": False,
    }


def _command(ruleset: Ruleset[Any, Any, Any], record: type, dice: JSON) -> dict[str, JSON]:
    spec = spec_of(record)
    return {
        "doc": spec.doc,
        "phases": list(spec.phases or ruleset.phases),
        "dice": list(spec.dice),
        "referee_only": spec.referee,
        "body": command_schema(record, dice),
        "example": {"type": spec.name, **(spec.example or {})},
    }


def _conclude(dice: JSON) -> dict[str, JSON]:
    """`conclude` is every ruleset's, handled by the fold itself (rules/fold.py)."""
    doc = "Ends the battle and reveals the dice seed, so anyone can recompute every roll."
    return _fold_command(CONCLUDE, doc, dice)


def _undo(dice: JSON) -> dict[str, JSON]:
    """`undo` is every ruleset's too: the fold restores the state before the latest undoable command."""
    doc = (
        "Cancels the latest applied command that is neither an undo nor undone yet: the log keeps both, the "
        "state is as if it never happened, the outcome names `undone_version`; no redo (send it again)."
    )
    return _fold_command(UNDO, doc, dice)


def _fold_command(name: str, doc: str, dice: JSON) -> dict[str, JSON]:
    body: dict[str, JSON] = {
        "$schema": DIALECT,
        "title": name,
        "description": doc,
        "type": "object",
        "properties": {"type": {"const": name}, "dice": dice},
        "required": ["type"],
        "additionalProperties": False,
    }
    example: dict[str, JSON] = {"type": name}
    return {"doc": doc, "phases": [], "dice": [], "referee_only": True, "body": body, "example": example}


def _slot(ruleset: Ruleset[Any, Any, Any], name: str) -> dict[str, JSON]:
    slot = ruleset.slots[name]
    drawn_by = [n for n, record in ruleset.commands.items() if name in spec_of(record).dice]
    return {
        "die": "varies" if slot.faces is None else f"d{slot.faces}",
        "per_roll": slot.per_roll,
        "doc": slot.doc,
        "drawn_by": drawn_by,
    }


def _options(ruleset: Ruleset[Any, Any, Any]) -> dict[str, JSON]:
    defaults = encode(ruleset.options())
    options: dict[str, JSON] = {}
    for p in plan(ruleset.options):
        schema = field_schema(p)
        options[p.name] = {"default": defaults[p.name], "doc": p.facts.doc or "", "schema": schema}
    return options
