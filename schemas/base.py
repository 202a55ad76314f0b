"""Strict building blocks of the wire contract: unknown fields raise, numbers and booleans are exact."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

ID_LENGTH = validate.Length(min=1, max=128)
MAX_SAFE_INTEGER = 2**53 - 1  # I-JSON (RFC 7493 §2.2): what every JSON client reads back exactly


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


class Unique(validate.Validator):
    """A list without repeated items."""

    error = "Items must not repeat."

    def __call__(self, value: Any) -> Any:
        if len(set(value)) != len(value):
            raise ValidationError(self.error)
        return value


class StrictBoolean(fields.Boolean):
    """Only JSON true/false: marshmallow's Boolean would also take "yes", 1 or "0"."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if value is True or value is False:
            return value
        raise self.make_error("invalid", input=value)


def integer(**kwargs: Any) -> fields.Integer:
    """An integer that must be a JSON integer (no strings, floats or booleans)."""
    return fields.Integer(strict=True, **kwargs)


def cursor(low: int = 0, **kwargs: Any) -> fields.Integer:
    """A version or a count in a query or header: a safe integer, so no store meets a number it refuses."""
    return fields.Integer(validate=validate.Range(min=low, max=MAX_SAFE_INTEGER), **kwargs)


def entity_id(**kwargs: Any) -> fields.String:
    """A client-chosen id of a section, stand, gate, engine or creature."""
    return fields.String(validate=ID_LENGTH, **kwargs)


def id_list(**kwargs: Any) -> fields.List[str]:
    return fields.List(entity_id(required=True), **kwargs)


def one_of(*choices: str, **kwargs: Any) -> fields.String:
    return fields.String(validate=validate.OneOf(choices), **kwargs)


def command_type(name: str) -> fields.String:
    """The `type` discriminator of one command schema."""
    return fields.String(required=True, validate=validate.OneOf([name]))


def default(value: Any, description: str | None = None) -> dict[str, Any]:
    """Document a default the rules apply, without filling it in: the log keeps the command as sent."""
    metadata: dict[str, Any] = {"default": value}
    if description:
        metadata["description"] = description
    return {"metadata": metadata}


def described(description: str) -> dict[str, Any]:
    return {"metadata": {"description": description}}
