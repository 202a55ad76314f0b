"""A field holding one of several object shapes, chosen by a tag member such as `kind` (a tagged union)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from marshmallow import Schema, ValidationError, fields


class TaggedUnion(fields.Field[dict[str, Any]]):
    """`variants` maps each tag value to the schema of that shape; the OpenAPI document renders it as a
    `oneOf` with a discriminator (service/openapi/smorest_api.py)."""

    default_error_messages = {"invalid": "Not a valid object."}

    def __init__(self, *, tag: str, variants: Mapping[str, type[Schema]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tag = tag
        self.variants = dict(variants)

    @cached_property
    def _schemas(self) -> dict[str, Schema]:
        return {name: cls() for name, cls in self.variants.items()}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        tag = value.get(self.tag)
        schema = self._schemas.get(tag) if isinstance(tag, str) else None
        if schema is None:
            raise ValidationError({self.tag: [f"Must be one of: {', '.join(self.variants)}."]})
        loaded: dict[str, Any] = schema.load(value)
        return loaded
