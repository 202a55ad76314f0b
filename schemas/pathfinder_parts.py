"""Nested shapes of pathfinder commands (spec pathfinder §0, §3): squares, targets, creature statistics,
contributions, and the command base that carries the §4 dice."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate

from rules.pathfinder.sizes import SIZES
from schemas.base import StrictSchema, Unique, default, described, entity_id, integer, one_of
from schemas.dice import Dice

AT_LEAST_ONE = validate.Range(min=1)
NOT_NEGATIVE = validate.Range(min=0)


class PathfinderCommandSchema(StrictSchema):
    dice = Dice(ruleset="pathfinder")


class UniqueBy(validate.Validator):
    """A list of objects in which `key` does not repeat (a creature contributes once per command)."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __call__(self, value: Any) -> Any:
        keys = [item.get(self.key) for item in value]
        if len(set(keys)) != len(keys):
            raise ValidationError(f"Each {self.key} may appear once.")
        return value


def unique_ids(*, non_empty: bool = False, **kwargs: Any) -> fields.List[str]:
    """Ids listed at most once each; `non_empty` where the spec says the list may not be empty."""
    checks: list[validate.Validator] = [validate.Length(min=1)] if non_empty else []
    metadata = {"uniqueItems": True, **kwargs.pop("metadata", {})}
    return fields.List(entity_id(required=True), validate=[*checks, Unique()], metadata=metadata, **kwargs)


def size(*choices: str, **kwargs: Any) -> fields.String:
    """A PF-GEN-03 size code (English codes on the wire), limited to `choices` where the spec limits it."""
    return one_of(*(choices or SIZES), **kwargs)


class PathfinderSquareSchema(StrictSchema):
    """A PF-GEN-04 grid square; the grid has no edge, so any integers."""

    x = integer(required=True)
    y = integer(required=True)


def square(**kwargs: Any) -> fields.Nested:
    return fields.Nested(PathfinderSquareSchema, **kwargs)


class PathfinderEntityTargetSchema(StrictSchema):
    """`{creature_id}`, `{engine_id}` or `{structure_id}`: none or several is the rules' `invalid_field`."""

    creature_id = entity_id()
    engine_id = entity_id()
    structure_id = entity_id()


class PathfinderTargetSchema(PathfinderEntityTargetSchema):
    """An entity target or `{square: {x, y}}` (PF-AIM-01); which kind an engine takes is the rules' call."""

    square = square()


class PathfinderInsideSchema(StrictSchema):
    engine_id = entity_id(required=True)
    level = one_of("lower", "upper", allow_none=True, **described("towers: required; galleries: ignored"))


class PathfinderSavesSchema(StrictSchema):
    fort = integer(**default(0))
    ref = integer(**default(0))
    will = integer(**default(0))


class PathfinderSkillSchema(StrictSchema):
    ranks = integer(validate=NOT_NEGATIVE, **default(0))
    modifier = integer(**default(0, "may be given with 0 ranks"))


def _skill() -> fields.Nested:
    return fields.Nested(PathfinderSkillSchema, **default({"ranks": 0, "modifier": 0}))


class PathfinderSkillsSchema(StrictSchema):
    craft_siege_engine = _skill()
    disable_device = _skill()
    knowledge_engineering = _skill()
    profession_siege_engineer = _skill()


class PathfinderContributionSchema(StrictSchema):
    """One crew member's share of a `load` or `aim` (PF-LOAD-02): 2 actions need Master Siege Engineer."""

    creature_id = entity_id(required=True)
    actions = integer(validate=validate.OneOf([1, 2]), **default(1))


def contributions(*, non_empty: bool = False, **kwargs: Any) -> fields.List[Any]:
    """`{creature_id, actions}` entries, one per creature."""
    checks: list[validate.Validator] = [validate.Length(min=1)] if non_empty else []
    return fields.List(
        fields.Nested(PathfinderContributionSchema), validate=[*checks, UniqueBy("creature_id")], **kwargs
    )
