"""Pathfinder close-assault and structure commands (spec §3.17–3.23): rams, breaking, gates, bridges,
the corvus and the crushing wheel."""

from __future__ import annotations

from marshmallow import fields

from schemas.base import StrictBoolean, command_type, default, described, entity_id, integer, one_of
from schemas.pathfinder_parts import PathfinderCommandSchema, PathfinderEntityTargetSchema, unique_ids


class PathfinderRamSchema(PathfinderCommandSchema):
    type = command_type("ram")
    engine_id = entity_id(required=True)
    target = fields.Nested(PathfinderEntityTargetSchema, required=True)
    charging = StrictBoolean(**default(True))


class PathfinderBreakSchema(PathfinderCommandSchema):
    """A ram (`engine_id`, `charging`) or a creature (`by`, `take_10`): both or neither is `invalid_field`."""

    type = command_type("break")
    structure_id = entity_id(required=True)
    engine_id = entity_id(allow_none=True, **described("a ram"))
    charging = StrictBoolean(**default(True, "with a ram only"))
    by = entity_id(allow_none=True, **described("a creature breaking it alone"))
    take_10 = StrictBoolean(**default(False, "without a ram only"))


class PathfinderOperateGateSchema(PathfinderCommandSchema):
    type = command_type("operate_gate")
    structure_id = entity_id(required=True)
    contributors = unique_ids(required=True, non_empty=True, **described("a full-round action each"))


class PathfinderRaiseBridgeSchema(PathfinderCommandSchema):
    type = command_type("raise_bridge")
    engine_id = entity_id(required=True)
    contributors = unique_ids(required=True, non_empty=True, **described("a full-round action each"))


class PathfinderUseCorvusSchema(PathfinderCommandSchema):
    type = command_type("use_corvus")
    engine_id = entity_id(required=True)
    action = one_of("drop", "reset", required=True)
    take_10 = StrictBoolean(**default(False, "drop only"))


class PathfinderDislodgeCorvusSchema(PathfinderCommandSchema):
    """`driving_modifier` missing for a driving check, or given for a Strength check, is `invalid_field`."""

    type = command_type("dislodge_corvus")
    engine_id = entity_id(required=True)
    by = entity_id(required=True)
    method = one_of("strength", "driving", required=True)
    driving_modifier = integer(allow_none=True, **described("driving only"))
    occupant_ids = unique_ids(**default([]))


class PathfinderCrushSchema(PathfinderCommandSchema):
    type = command_type("crush")
    engine_id = entity_id(required=True)
    target_ids = unique_ids(required=True, non_empty=True, **described("creatures"))
