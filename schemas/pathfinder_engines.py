"""Pathfinder commands that work an engine (spec §3.9–3.16): assemble, move, load, aim, fire, observe,
repair and disable."""

from __future__ import annotations

from marshmallow import fields, validate

from schemas.base import StrictBoolean, command_type, default, described, entity_id, integer, one_of
from schemas.pathfinder_objects import (
    AMMUNITION_IDS,
    PathfinderAreaSchema,
    PathfinderTelekineticAssemblySchema,
)
from schemas.pathfinder_parts import (
    PathfinderCommandSchema,
    PathfinderTargetSchema,
    contributions,
    square,
    unique_ids,
)

REPAIR_SKILLS = ("craft_siege_engine", "disable_device", "knowledge_engineering")  # PF-REPAIR-03
EMPOWER = validate.Range(min=0, max=9)  # PF-MAGIC-05: spell levels 1…9, 0 for none


class PathfinderAssembleSchema(PathfinderCommandSchema):
    """An empty worker list the spell does not cover, or a leader or taker of 10 who is not a listed worker,
    is the rules' `invalid_field` or `too_few_workers`."""

    type = command_type("assemble")
    engine_id = entity_id(required=True)
    worker_ids = unique_ids(**default([]))
    leader_id = entity_id(allow_none=True, **described("a listed worker"))
    take_10 = unique_ids(**default([], "listed workers who take 10"))
    telekinetic_assembly = fields.Nested(PathfinderTelekineticAssemblySchema, allow_none=True)


class PathfinderMoveEngineSchema(PathfinderCommandSchema):
    type = command_type("move_engine")
    engine_id = entity_id(required=True)
    to = square(required=True)
    carried = StrictBoolean(**default(False, "on a vehicle (PF-MOVE-05)"))


class PathfinderLoadSchema(PathfinderCommandSchema):
    type = command_type("load")
    engine_id = entity_id(required=True)
    contributors = contributions(required=True, non_empty=True)
    ammunition = one_of(*AMMUNITION_IDS, allow_none=True, **described("the cycle's first load chooses it"))


class PathfinderAimSchema(PathfinderCommandSchema):
    type = command_type("aim")
    engine_id = entity_id(required=True)
    target = fields.Nested(PathfinderTargetSchema, required=True)
    contributors = contributions(**default([], "empty only selects the target"))


class PathfinderFireSchema(PathfinderCommandSchema):
    """`target` for an engine that aims, or `area` / `target_ids` missing where required or given for another
    shot, is the rules' `invalid_field`."""

    type = command_type("fire")
    engine_id = entity_id(required=True)
    target = fields.Nested(PathfinderTargetSchema, allow_none=True, **described("aim-0 engines only"))
    line_of_sight = StrictBoolean(**default(True))
    crew_sees_landing = StrictBoolean(allow_none=True, **described("default: line_of_sight"))
    area = fields.Nested(PathfinderAreaSchema, allow_none=True, **described("firedrake and firewyrm only"))
    target_ids = unique_ids(allow_none=True, non_empty=True, **described("blast shot only"))
    empower_spell_level = integer(validate=EMPOWER, **default(0, "a siege mage leader's spell level"))


class PathfinderObserveSchema(PathfinderCommandSchema):
    type = command_type("observe")
    engine_id = entity_id(required=True)
    observer_id = entity_id(required=True)


class PathfinderRepairSchema(PathfinderCommandSchema):
    """`method` other than craft for `disabled`, or `skill` other than craft for `broken`: `invalid_field`."""

    type = command_type("repair")
    engine_id = entity_id(required=True)
    by = entity_id(required=True)
    kind = one_of("broken", "disabled", required=True)
    method = one_of("craft", "field_repair", **default("craft", "broken only"))
    skill = one_of(*REPAIR_SKILLS, **default("craft_siege_engine", "disabled only"))
    take_10 = StrictBoolean(**default(False))


class PathfinderDisableSchema(PathfinderCommandSchema):
    type = command_type("disable")
    engine_id = entity_id(required=True)
    by = entity_id(required=True)
    mode = one_of("inoperable", "sabotage", required=True)
    take_10 = StrictBoolean(**default(False))
