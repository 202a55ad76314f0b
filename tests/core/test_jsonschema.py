"""rules.jsonschema: a command body's JSON Schema accepts what rules.build reads and refuses what it refuses
(the one thing a schema cannot say, a list unique by a member, is said in words)."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rules.build import ID_LENGTH
from rules.jsonschema import DIALECT, command_schema, record_schema
from tests.core.test_build import ORDERS, REFUSED, UNIQUE_BY, Orders
from tests.core.test_declare import SignalRetreat

SCHEMA = Draft202012Validator(record_schema(Orders))
ACCEPTED: list[dict[str, Any]] = [
    {},
    {"strength": 1}, {"strength": 6}, {"rounds": 4}, {"stance": "charge"}, {"flank": "right"},
    {"note": "x" * 300}, {"hidden": True}, {"unit_id": "u" * ID_LENGTH}, {"helpers": ["u2"]},
    {"path": [{"x": 1, "y": 1}]}, {"leader_id": None}, {"leader_id": "u9"}, {"banner_id": "b1"},
]  # fmt: skip


@pytest.mark.parametrize("fields", ACCEPTED, ids=repr)
def test_the_schema_accepts_what_build_reads(fields: dict[str, Any]) -> None:
    assert list(SCHEMA.iter_errors({**ORDERS, **fields})) == []


@pytest.mark.parametrize("fields", [f for f in REFUSED if f != UNIQUE_BY], ids=repr)
def test_the_schema_refuses_what_build_refuses(fields: dict[str, Any]) -> None:
    assert list(SCHEMA.iter_errors({**ORDERS, **fields})) != []


def test_members_not_declared_are_refused_and_the_uniqueness_by_a_member_is_said_in_words() -> None:
    assert list(SCHEMA.iter_errors({**ORDERS, "speed": 3})) != []
    assert list(SCHEMA.iter_errors({"strength": 2})) != []  # unit_id is required
    assert list(SCHEMA.iter_errors({**ORDERS, **UNIQUE_BY})) == []
    assert record_schema(Orders)["properties"]["path"]["description"] == "each `x` at most once"


def test_a_fields_schema_states_its_default_and_a_nullable_one_admits_null() -> None:
    properties = record_schema(Orders)["properties"]
    assert properties["strength"] == {"type": "integer", "minimum": 1, "maximum": 6, "default": 1}
    assert properties["rounds"] == {"type": "integer", "enum": [1, 2, 4], "default": 1}
    assert properties["unit_id"] == {"type": "string", "minLength": 1, "maxLength": ID_LENGTH}
    assert properties["note"] == {"type": "string", "default": ""}
    assert properties["helpers"]["minItems"] == 1 and properties["helpers"]["uniqueItems"] is True
    assert properties["leader_id"] == {
        "anyOf": [{"type": "string", "minLength": 1, "maxLength": ID_LENGTH}, {"type": "null"}],
        "default": None,
    }
    assert properties["banner_id"] == {"type": "string", "minLength": 1, "maxLength": ID_LENGTH}
    assert record_schema(Orders)["required"] == ["unit_id"]
    assert record_schema(Orders)["description"] == "One field of each kind a command declares."


def test_a_command_schema_is_its_body_with_its_type_and_dice() -> None:
    dice = {"type": "object"}
    schema = command_schema(SignalRetreat, dice)
    assert (schema["$schema"], schema["title"], schema["description"]) == (
        DIALECT,
        "signal_retreat",
        "Sounds the retreat.",
    )
    assert schema["properties"] == {
        "type": {"const": "signal_retreat"},
        "stand_id": {"type": "string", "minLength": 1, "maxLength": ID_LENGTH},
        "dice": dice,
    }
    assert schema["required"] == ["type", "stand_id"] and schema["additionalProperties"] is False
    validator = Draft202012Validator(schema)
    assert list(validator.iter_errors({"type": "signal_retreat", "stand_id": "a1"})) == []
    assert list(validator.iter_errors({"type": "wait", "stand_id": "a1"})) != []
