"""Nested shapes that set up engines and structures (spec pathfinder §3.4, §3.5, §3.9, §3.13): armor, stat
overrides, starting states, telekinetic assembly and firedrake areas."""

from __future__ import annotations

from marshmallow import fields, validate

from rules.pathfinder.catalog import AMMUNITION
from schemas.base import StrictBoolean, StrictSchema, default, described, integer, one_of
from schemas.pathfinder_parts import (
    AT_LEAST_ONE,
    NOT_NEGATIVE,
    PathfinderTargetSchema,
    size,
    unique_ids,
)

ENHANCEMENT = validate.Range(min=0, max=5)  # PF-MAGIC-02
AMMUNITION_IDS = tuple(AMMUNITION)  # PF-AMMO-01, in catalog order


class PathfinderArmorSchema(StrictSchema):
    """PF-DEF-03; shields are not armor. Enhancement without masterwork is the rules' `not_masterwork`."""

    armor_bonus = integer(required=True, validate=NOT_NEGATIVE)
    enhancement = integer(validate=NOT_NEGATIVE, **default(0))
    category = one_of("light", "medium", "heavy", required=True)
    metal = StrictBoolean(required=True)
    masterwork = StrictBoolean(**default(False))
    base_price_gp = integer(required=True, validate=NOT_NEGATIVE)


class PathfinderEngineOverridesSchema(StrictSchema):
    """PF-DEF-02: statistics the catalog lacks (springals) or that the table changes; `size`: corvus only."""

    targeting_dc = integer(allow_none=True)
    hardness = integer(allow_none=True, validate=NOT_NEGATIVE)
    hp = integer(allow_none=True, validate=AT_LEAST_ONE, **described("base hit points"))
    size = size(allow_none=True, **described("corvus only"))


class PathfinderSuccessiveSchema(StrictSchema):
    """PF-INDIRECT-05 successive-shot state for the square the engine starts aimed at."""

    seen_misses = integer(validate=NOT_NEGATIVE, **default(0))
    unseen_misses = integer(validate=NOT_NEGATIVE, **default(0))
    reported_misses = integer(validate=NOT_NEGATIVE, **default(0))
    hit = StrictBoolean(**default(False))


class PathfinderEngineStateSchema(StrictSchema):
    """A starting state; which ammunition or aim target fits the engine is the rules' `invalid_field`."""

    loaded = StrictBoolean(**default(False, "true also completes the load requirement"))
    ammunition = one_of(*AMMUNITION_IDS, **default("standard"))
    aimed_at = fields.Nested(
        PathfinderTargetSchema, allow_none=True, **described("aim target; aim progress = 2 × catalog aim")
    )
    broken = StrictBoolean(**default(False, "sets broken_by_mishap"))
    hp = integer(allow_none=True, **described("default: max_hp; at or below 0 the engine is destroyed"))
    successive = fields.Nested(PathfinderSuccessiveSchema)


class PathfinderStructureOverridesSchema(StrictSchema):
    """PF-STRUCT-04: wall squares other than iron, and earth always, supply hardness and hp."""

    hardness = integer(allow_none=True, validate=NOT_NEGATIVE)
    hp = integer(allow_none=True, validate=AT_LEAST_ONE)
    break_dc = integer(allow_none=True)


class PathfinderStructureStateSchema(StrictSchema):
    hp = integer(allow_none=True, **described("default: max_hp; at or below half it starts broken"))
    open = StrictBoolean(**default(False, "gates only"))


class PathfinderTelekineticAssemblySchema(StrictSchema):
    """PF-ASSEMBLE-04: how many workers the spell replaces."""

    caster_level = integer(required=True, validate=AT_LEAST_ONE)
    knowledge_engineering_ranks = integer(required=True, validate=NOT_NEGATIVE)


class PathfinderAreaSchema(StrictSchema):
    """PF-ENGINE-03: the gout's shape and the creatures the client places in it."""

    shape = one_of("line", "cone", required=True)
    target_ids = unique_ids(**default([]))
