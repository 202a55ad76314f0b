"""Nested shapes of epic commands (spec epic §0, §3): locations, weapons, targets; battle options (§5)."""

from __future__ import annotations

from typing import Any

from marshmallow import validate

from schemas.base import StrictBoolean, StrictSchema, default, entity_id, integer, one_of
from schemas.union import TaggedUnion


class EpicOutsideSchema(StrictSchema):
    kind = one_of("outside", required=True)


class EpicInsideSchema(StrictSchema):
    kind = one_of("inside", required=True)


class EpicAtFootSchema(StrictSchema):
    kind = one_of("at_foot", required=True)
    section_id = entity_id(required=True)


class EpicOnSectionSchema(StrictSchema):
    kind = one_of("on", required=True)
    section_id = entity_id(required=True)


class EpicEmbarkedSchema(StrictSchema):
    kind = one_of("embarked", required=True)
    transport_id = entity_id(required=True)


GROUND = {
    "outside": EpicOutsideSchema,
    "at_foot": EpicAtFootSchema,
    "on": EpicOnSectionSchema,
    "inside": EpicInsideSchema,
}


def location(**kwargs: Any) -> TaggedUnion:
    """Any §0 location, `embarked` included (where a stand may be placed)."""
    return TaggedUnion(tag="kind", variants={**GROUND, "embarked": EpicEmbarkedSchema}, **kwargs)


def destination(**kwargs: Any) -> TaggedUnion:
    """A §0 location a stand can move to: boarding a transport is `embark`, not `move`."""
    return TaggedUnion(tag="kind", variants=GROUND, **kwargs)


class EpicWeaponSchema(StrictSchema):
    id = entity_id(required=True)
    to_hit = integer(required=True, validate=validate.Range(min=2, max=6))
    save_modifier = integer(validate=validate.Range(max=0), **default(0))


class EpicTargetSchema(StrictSchema):
    """`{section_id}` or `{stand_id}`: both or neither is the rules' `invalid_field`, not a schema error."""

    section_id = entity_id()
    stand_id = entity_id()


class EpicOptionsSchema(StrictSchema):
    tie_rule = one_of("none_destroyed", "both_destroyed", **default("none_destroyed"))
    half_va_rounding = one_of("ceil", "floor", **default("ceil"))
    gate_needs_two_failures = StrictBoolean(**default(False))
    occupants_destroyed_with_section = StrictBoolean(**default(False))
    natural_six_always_hits = StrictBoolean(**default(False))
    ta_bonus_only_when_closed = StrictBoolean(**default(False))
    default_section_capacity = integer(validate=validate.Range(min=1), **default(1))
