"""The pathfinder schemas follow the rules' command records down to nested shapes: the same fields, required
exactly where the record has no default, null exactly where the record takes None, enums within the
record's literals; and the dice are the slots of spec §4."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from marshmallow import Schema, fields, validate

from rules.pathfinder.commands import COMMANDS
from rules.pathfinder.state import Target
from schemas.commands import command_schemas
from schemas.dice import Dice

SPEC_DICE_SLOTS = {
    "attack",
    "confirm",
    "targeting",
    "operation",
    "damage",
    "scatter_direction",
    "scatter_distance",
    "save",
    "explosion_damage",
    "explosion_reflex",
    "check",
    "disable_rounds",
    "sabotage_minutes",
}


def pairs(schema: type[Schema], record: type, path: str) -> Iterator[tuple[str, fields.Field[Any], Any, Any]]:
    """(path, schema field, record field, record type) for every record field, recursing into nested records;
    `Target` is skipped: its wire form ({creature_id} or {square}) is rewritten by the rules on the way in."""
    hints = typing.get_type_hints(record)
    declared = schema._declared_fields
    for record_field in dataclasses.fields(record):
        name, hint = record_field.name, hints[record_field.name]
        field = declared[name]
        yield f"{path}.{name}", field, record_field, hint
        inner, nested = _inner(hint), _nested(field)
        if dataclasses.is_dataclass(inner) and inner is not Target and nested is not None:
            yield from pairs(nested, typing.cast(type, inner), f"{path}.{name}")


def _members(hint: Any) -> tuple[Any, ...]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return typing.get_args(hint)
    return (hint,)


def _inner(hint: Any) -> Any:
    """The record type inside `X | None` or `tuple[X, ...]`."""
    found = [m for m in _members(hint) if m is not type(None) and typing.get_origin(m) is not typing.Literal]
    inner = found[0] if found else hint
    return typing.get_args(inner)[0] if typing.get_origin(inner) is tuple else inner


def _nested(field: fields.Field[Any]) -> type[Schema] | None:
    field = field.inner if isinstance(field, fields.List) else field
    return field.nested if isinstance(field, fields.Nested) else None  # type: ignore[return-value]


def _literals(hint: Any) -> set[Any]:
    return {v for m in _members(hint) if typing.get_origin(m) is typing.Literal for v in typing.get_args(m)}


def _choices(field: fields.Field[Any]) -> set[Any]:
    return {c for v in field.validators if isinstance(v, validate.OneOf) for c in v.choices}


ALL_PAIRS = [
    p for kind, record in COMMANDS.items() for p in pairs(command_schemas("pathfinder")[kind], record, kind)
]
IDS = [p[0] for p in ALL_PAIRS]


def test_every_nested_shape_is_compared() -> None:
    assert {"place_engine.state.successive.hit", "add_creature.skills.disable_device.ranks"} <= set(IDS)


@pytest.mark.parametrize("path, field, record_field, hint", ALL_PAIRS, ids=IDS)
def test_the_schema_field_matches_the_record_field(
    path: str, field: fields.Field[Any], record_field: Any, hint: Any
) -> None:
    no_default = (
        record_field.default is dataclasses.MISSING and record_field.default_factory is dataclasses.MISSING
    )
    assert field.required == no_default
    assert field.allow_none == (type(None) in _members(hint))
    literals = _literals(hint)
    if literals and _choices(field):
        assert _choices(field) <= literals


@pytest.mark.parametrize("kind", COMMANDS)
def test_every_command_takes_the_dice_slots_of_spec_section_4(kind: str) -> None:
    dice = command_schemas("pathfinder")[kind]._declared_fields["dice"]

    assert isinstance(dice, Dice)
    assert set(dice.slots()) == SPEC_DICE_SLOTS
