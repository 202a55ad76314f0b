"""rules.jsonschema: a command body's JSON Schema accepts what rules.build reads and refuses what it refuses
(the one thing a schema cannot say, a list unique by a member, is said in words)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from jsonschema import Draft202012Validator

from rules.build import ID_LENGTH
from rules.declare import WireForm, command, wire
from rules.jsonschema import DIALECT, command_schema, record_schema
from tests.core.test_build import ORDERS, REFUSED, UNIQUE_BY, Orders
from tests.core.test_declare import SignalRetreat

ID = {"type": "string", "minLength": 1, "maxLength": ID_LENGTH}


def orders_schema() -> Draft202012Validator:
    """Built in each test, not at import: what the rules derive is what each test checks."""
    return Draft202012Validator(record_schema(Orders))


ACCEPTED: list[dict[str, Any]] = [
    {},
    {"strength": 1}, {"strength": 6}, {"rounds": 4}, {"stance": "charge"}, {"flank": "right"},
    {"note": "x" * 300}, {"hidden": True}, {"unit_id": "u" * ID_LENGTH}, {"helpers": ["u2"]},
    {"path": [{"x": 1, "y": 1}]}, {"leader_id": None}, {"leader_id": "u9"}, {"banner_id": "b1"},
]  # fmt: skip


@pytest.mark.parametrize("fields", ACCEPTED, ids=repr)
def test_the_schema_accepts_what_build_reads(fields: dict[str, Any]) -> None:
    assert list(orders_schema().iter_errors({**ORDERS, **fields})) == []


@pytest.mark.parametrize("fields", [f for f in REFUSED if f != UNIQUE_BY], ids=repr)
def test_the_schema_refuses_what_build_refuses(fields: dict[str, Any]) -> None:
    assert list(orders_schema().iter_errors({**ORDERS, **fields})) != []


def test_members_not_declared_are_refused_and_the_uniqueness_by_a_member_is_said_in_words() -> None:
    assert list(orders_schema().iter_errors({**ORDERS, "speed": 3})) != []
    assert list(orders_schema().iter_errors({"strength": 2})) != []  # unit_id is required
    assert list(orders_schema().iter_errors({**ORDERS, **UNIQUE_BY})) == []
    assert record_schema(Orders)["properties"]["path"]["description"] == "each `x` at most once"


def test_a_fields_schema_states_its_default_and_a_nullable_one_admits_null() -> None:
    properties = record_schema(Orders)["properties"]
    assert properties["strength"] == {"type": "integer", "minimum": 1, "maximum": 6, "default": 1}
    assert properties["rounds"] == {"type": "integer", "enum": [1, 2, 4], "default": 1}
    assert properties["unit_id"] == {"type": "string", "minLength": 1, "maxLength": ID_LENGTH}
    assert properties["note"] == {"type": "string", "default": ""}
    assert properties["stance"] == {"type": "string", "enum": ["hold", "charge"], "default": "hold"}
    assert properties["flank"] == {"type": "string", "enum": ["left", "right"], "default": "left"}
    assert properties["hidden"] == {"type": "boolean", "default": False}
    helpers = {"type": "array", "items": ID, "minItems": 1, "uniqueItems": True, "default": []}
    assert properties["helpers"] == helpers
    assert properties["path"]["type"] == "array" and properties["path"]["items"]["type"] == "object"
    assert properties["leader_id"] == {
        "anyOf": [{"type": "string", "minLength": 1, "maxLength": ID_LENGTH}, {"type": "null"}],
        "default": None,
    }
    assert properties["banner_id"] == {"type": "string", "minLength": 1, "maxLength": ID_LENGTH}
    schema = record_schema(Orders)
    assert (schema["type"], schema["required"], schema["additionalProperties"]) == (
        "object",
        ["unit_id"],
        False,
    )
    assert schema["description"] == "One field of each kind a command declares."


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


@dataclass(frozen=True, slots=True, kw_only=True)
class Stand:
    kind: Literal["stand"] = "stand"
    stand_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    kind: Literal["section"] = "section"
    section_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SentStand:
    """A stand as clients send it."""

    id: str


SECTIONS = wire(choices=("section",))
SENT_STAND = WireForm(record=SentStand, to_record=lambda sent: Stand(stand_id=sent.id))


@command("sound_horn", doc="Sounds a horn.")
@dataclass(frozen=True, slots=True, kw_only=True)
class SoundHorn:
    """Heard across the field."""

    target: Stand | Section
    then: Stand | Section | Literal["unchanged"] = field(default="unchanged", metadata=SECTIONS)
    herald: Stand = field(metadata=wire(form=SENT_STAND))
    echo: Stand | None = field(default=None, metadata=wire(form=SENT_STAND))


def variant(kind: str, id_field: str) -> dict[str, Any]:
    """A tagged union's variant as the schema requires it: its tag sent, so no default for it."""
    return {
        "type": "object",
        "properties": {"kind": {"type": "string", "enum": [kind]}, id_field: ID},
        "required": ["kind", id_field],
        "additionalProperties": False,
    }


SENT = {
    "type": "object",
    "properties": {"id": ID},
    "required": ["id"],
    "additionalProperties": False,
    "description": "A stand as clients send it.",
}


def test_a_union_of_records_is_one_of_its_variants_each_naming_itself_by_its_required_tag() -> None:
    properties = record_schema(SoundHorn)["properties"]
    assert properties["target"] == {"oneOf": [variant("stand", "stand_id"), variant("section", "section_id")]}
    # a record of the union on its own keeps its tag's default: only a variant must name itself
    stand = {"type": "string", "enum": ["stand"], "default": "stand"}
    assert record_schema(Stand)["properties"]["kind"] == stand
    assert record_schema(Stand)["required"] == ["stand_id"]
    horn = Draft202012Validator(record_schema(SoundHorn))
    sent = {"herald": {"id": "h1"}}
    assert horn.is_valid({**sent, "target": {"kind": "stand", "stand_id": "a1"}})
    assert horn.is_valid({**sent, "target": {"kind": "section", "section_id": "W1"}})
    assert not horn.is_valid({**sent, "target": {"stand_id": "a1"}})  # the tag is not left to a default
    assert not horn.is_valid({**sent, "target": {"kind": "section", "stand_id": "a1"}})


def test_a_field_with_a_default_marker_takes_only_the_wire_values_its_choices_allow() -> None:
    then = record_schema(SoundHorn)["properties"]["then"]
    assert then == {"oneOf": [variant("section", "section_id")]}  # no default: the marker is not sent


def test_a_field_sent_in_another_records_shape_has_that_records_schema_null_too_when_nullable() -> None:
    schema = record_schema(SoundHorn)
    assert schema["properties"]["herald"] == SENT
    assert schema["properties"]["echo"] == {"anyOf": [SENT, {"type": "null"}], "default": None}
    assert schema["required"] == ["target", "herald"]
    horn = Draft202012Validator(schema)
    sent = {"target": {"kind": "stand", "stand_id": "a1"}, "herald": {"id": "h1"}}
    assert horn.is_valid({**sent, "echo": None}) and horn.is_valid({**sent, "echo": {"id": "e1"}})
    assert not horn.is_valid({**sent, "herald": None})
    # the field's own record is not what clients send
    assert not horn.is_valid({**sent, "herald": {"kind": "stand", "stand_id": "h1"}})


def test_a_command_schema_says_the_commands_doc_then_its_records_and_what_json_cannot_tell() -> None:
    schema = command_schema(SoundHorn, {})
    assert schema["description"] == "Sounds a horn. Heard across the field."
    ids = f"ids are 1-{ID_LENGTH} characters"
    assert schema["$comment"] == f"integers are JSON integers: 1.0 is refused; {ids}"
    assert schema["type"] == "object" and schema["required"] == ["type", "target", "herald"]
