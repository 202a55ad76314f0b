"""The ruleset description GET /rulesets/pathfinder serves: commands and fields, dice, options, catalog."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from rules.codec import JSON, encode
from rules.pathfinder.catalog import raw_catalog
from rules.pathfinder.commands import UNCHANGED
from rules.pathfinder.state import Target

# optional fields whose default copies another field or a rule
DEFAULT_FROM = {
    "touch_ac": "ac",
    "enchantment_price_bonus": "enhancement",
    "crew_sees_landing": "line_of_sight",
    "assembled": "PF-ASSEMBLE-05",
}
TARGET_SHAPE: JSON = {
    "one_of": [
        {"creature_id": "string"},
        {"engine_id": "string"},
        {"structure_id": "string"},
        {"square": {"x": "integer", "y": "integer"}},
    ]
}

OPTION_VALUES: dict[str, JSON] = {
    "crew_equivalence": ["aon", "printed"],
    "diminished_doubles_load": "bool",
    "diminished_crew_can_move": "bool",
    "max_range_increments": "integer >= 1",
    "targeting_platform": "bool",
    "ram_always_nonproficient": "bool",
    "gun_training_on_siege_firearms": "bool",
    "field_repair_light_ranged_dc": "integer",
    "validate_feat_prerequisites": "bool",
}


def type_name(hint: Any) -> JSON:
    """A readable rendering of a field's type: "int", "str | null", ["a", "b"], {record fields}."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Target:
        return TARGET_SHAPE
    if origin is typing.Literal:
        return list(args)
    if origin in (typing.Union, types.UnionType):
        parts = [type_name(a) for a in args if a is not type(None) and a != typing.Literal[UNCHANGED]]
        rendered = parts[0] if len(parts) == 1 else {"one_of": parts}
        return {"nullable": rendered} if type(None) in args else rendered
    if origin is tuple:
        return {"list_of": type_name(args[0])}
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return {"record": _fields(hint)}
    return {int: "integer", str: "string", bool: "boolean"}.get(hint, str(hint))


def _fields(record: type) -> list[JSON]:
    hints = typing.get_type_hints(record)
    described: list[JSON] = []
    for field in dataclasses.fields(record):
        required = field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
        value = field.default_factory() if field.default_factory is not dataclasses.MISSING else field.default
        default = None if required or value == UNCHANGED else encode(value)
        entry: dict[str, JSON] = {
            "name": field.name,
            "type": type_name(hints[field.name]),
            "required": required,
        }
        entry["default"] = default
        if field.name in DEFAULT_FROM and not required:
            entry["default_from"] = DEFAULT_FROM[field.name]
        described.append(entry)
    return described


def extra() -> dict[str, JSON]:
    """What only pathfinder describes: the engine catalog (spec/pathfinder-engines.json)."""
    catalog = raw_catalog()
    return {
        "catalog": {
            "catalog_version": catalog["catalog_version"],
            "conventions": catalog["conventions"],
            "engines": catalog["engines"],
            "ammunition": catalog["ammunition_types"],
        },
    }
