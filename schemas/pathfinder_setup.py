"""Pathfinder commands that set the table (spec §3.1–3.8): rounds, creatures, engines, structures, crews,
wind and engine spells."""

from __future__ import annotations

from typing import get_args

from marshmallow import fields

from rules.pathfinder.catalog import ENGINES
from rules.pathfinder.state import Wind
from schemas.base import (
    StrictBoolean,
    command_type,
    default,
    described,
    entity_id,
    integer,
    one_of,
)
from schemas.pathfinder_objects import (
    ENHANCEMENT,
    PathfinderArmorSchema,
    PathfinderEngineOverridesSchema,
    PathfinderEngineStateSchema,
    PathfinderStructureOverridesSchema,
    PathfinderStructureStateSchema,
)
from schemas.pathfinder_parts import (
    AT_LEAST_ONE,
    NOT_NEGATIVE,
    PathfinderCommandSchema,
    PathfinderInsideSchema,
    PathfinderSavesSchema,
    PathfinderSkillsSchema,
    size,
    square,
    unique_ids,
)

FEATS = ("siege_engineer", "master_siege_engineer", "siege_commander", "siege_gunner", "field_repair")
PROFICIENCIES = ("siege_engines", "firearms", *ENGINES)  # PF-GEN-08: weapon groups or catalog ids
FEATURES = ("siege_mage", "gun_training")
KNOWN_FEATS = f"the rules know {', '.join(FEATS)}; other feats are accepted and ignored"
PRICE_BONUS = described("default: enhancement; at least enhancement (PF-MAGIC-02)")
SIDE = described("the side that controls it (access control only; null: the GM alone)")


def side() -> fields.String:
    return entity_id(allow_none=True, **SIDE)


class PathfinderAdvanceRoundSchema(PathfinderCommandSchema):
    type = command_type("advance_round")
    rounds = integer(validate=AT_LEAST_ONE, **default(1))


class PathfinderAddCreatureSchema(PathfinderCommandSchema):
    type = command_type("add_creature")
    id = entity_id(required=True)
    size = size(required=True)
    ac = integer(required=True)
    touch_ac = integer(allow_none=True, **described("default: ac"))
    hp = integer(required=True, **described("also the creature's max_hp; at or below 0 it is down"))
    speed_ft = integer(validate=NOT_NEGATIVE, **default(30))
    bab = integer(**default(0))
    str_mod = integer(**default(0))
    dex_mod = integer(**default(0))
    int_mod = integer(**default(0))
    saves = fields.Nested(PathfinderSavesSchema)
    skills = fields.Nested(PathfinderSkillsSchema)
    feats = fields.List(fields.String(), **default([], KNOWN_FEATS))
    bonus_feats = fields.List(fields.String(), **default([], "count as feats, unchecked"))
    proficiencies = fields.List(one_of(*PROFICIENCIES), **default([]))
    features = fields.List(one_of(*FEATURES), **default([]))
    position = square(required=True)
    inside = fields.Nested(PathfinderInsideSchema, allow_none=True, **default(None))
    side = side()


class PathfinderMoveCreatureSchema(PathfinderCommandSchema):
    type = command_type("move_creature")
    creature_id = entity_id(required=True)
    position = square(allow_none=True, **described("omitted or null: stays"))
    inside = fields.Nested(PathfinderInsideSchema, allow_none=True, **described("null leaves; omitted keeps"))


class PathfinderPlaceEngineSchema(PathfinderCommandSchema):
    """Ram fields on a non-ram, or a state that does not fit the engine, are the rules' `invalid_field`."""

    type = command_type("place_engine")
    id = entity_id(required=True)
    catalog_id = fields.String(required=True, **described("a pathfinder-engines.json id"))
    position = square(required=True)
    side = side()
    masterwork = StrictBoolean(**default(False))
    enhancement = integer(validate=ENHANCEMENT, **default(0))
    enchantment_price_bonus = integer(allow_none=True, validate=NOT_NEGATIVE, **PRICE_BONUS)
    armor = fields.Nested(PathfinderArmorSchema, allow_none=True, **default(None))
    assembled = StrictBoolean(allow_none=True, **described("default: PF-ASSEMBLE-05 (catalog)"))
    targeting_platform = StrictBoolean(**default(False))
    improvised = StrictBoolean(**default(False, "rams only"))
    gallery_ram = StrictBoolean(**default(False, "rams only"))
    ram_head = one_of("none", "pick", "screw", **default("none", "rams only"))
    stat_overrides = fields.Nested(PathfinderEngineOverridesSchema)
    state = fields.Nested(PathfinderEngineStateSchema)


class PathfinderAddStructureSchema(PathfinderCommandSchema):
    """`size` missing for a gate or building, or a field of another kind, is the rules' `invalid_field`."""

    type = command_type("add_structure")
    id = entity_id(required=True)
    kind = one_of("wall", "gate", "building", required=True)
    material = one_of("wood", "stone", "iron", "adamantine", "earth", required=True)
    size = size("L", "H", "G", "C", allow_none=True, **described("gates and buildings: required"))
    position = square(allow_none=True, **described("required unless stacked_on gives it"))
    magic_treated = StrictBoolean(**default(False))
    flimsy = StrictBoolean(**default(False, "buildings only"))
    arcane_lock = StrictBoolean(**default(False, "gates only"))
    stacked_on = entity_id(allow_none=True, **described("walls: the wall square directly below"))
    stat_overrides = fields.Nested(PathfinderStructureOverridesSchema)
    state = fields.Nested(PathfinderStructureStateSchema)


class PathfinderAssignCrewSchema(PathfinderCommandSchema):
    type = command_type("assign_crew")
    engine_id = entity_id(required=True)
    creature_ids = unique_ids(required=True, non_empty=True)
    leader_id = entity_id(required=True)


class PathfinderSetWindSchema(PathfinderCommandSchema):
    type = command_type("set_wind")
    level = one_of(*get_args(Wind), required=True)


class PathfinderCastEngineSpellSchema(PathfinderCommandSchema):
    type = command_type("cast_engine_spell")
    engine_id = entity_id(required=True)
    spell = one_of("magic_siege_engine", "greater_magic_siege_engine", required=True)
    caster_level = integer(required=True, validate=AT_LEAST_ONE)
    duration_rounds = integer(required=True, validate=AT_LEAST_ONE)
