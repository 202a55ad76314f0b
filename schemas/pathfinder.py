"""The pathfinder wire contract: its battle options (spec §5) and every command schema (§3), registered
for dispatch on `type` and for the OpenAPI document."""

from __future__ import annotations

from marshmallow import validate

from schemas.base import StrictBoolean, StrictSchema, default, integer, one_of
from schemas.pathfinder_assault import (
    PathfinderBreakSchema,
    PathfinderCrushSchema,
    PathfinderDislodgeCorvusSchema,
    PathfinderOperateGateSchema,
    PathfinderRaiseBridgeSchema,
    PathfinderRamSchema,
    PathfinderUseCorvusSchema,
)
from schemas.pathfinder_engines import (
    PathfinderAimSchema,
    PathfinderAssembleSchema,
    PathfinderDisableSchema,
    PathfinderFireSchema,
    PathfinderLoadSchema,
    PathfinderMoveEngineSchema,
    PathfinderObserveSchema,
    PathfinderRepairSchema,
)
from schemas.pathfinder_parts import PathfinderCommandSchema
from schemas.pathfinder_setup import (
    PathfinderAddCreatureSchema,
    PathfinderAddStructureSchema,
    PathfinderAdvanceRoundSchema,
    PathfinderAssignCrewSchema,
    PathfinderCastEngineSpellSchema,
    PathfinderMoveCreatureSchema,
    PathfinderPlaceEngineSchema,
    PathfinderSetWindSchema,
)
from schemas.registry import RulesetSchemas


class PathfinderOptionsSchema(StrictSchema):
    """House rules, fixed at creation (PF-GEN-02): an unknown name or a bad value is a 422 naming it."""

    crew_equivalence = one_of("aon", "printed", **default("aon"))
    diminished_doubles_load = StrictBoolean(**default(False))
    diminished_crew_can_move = StrictBoolean(**default(False))
    max_range_increments = integer(validate=validate.Range(min=1), **default(10))
    targeting_platform = StrictBoolean(**default(False))
    ram_always_nonproficient = StrictBoolean(**default(False))
    gun_training_on_siege_firearms = StrictBoolean(**default(False))
    field_repair_light_ranged_dc = integer(**default(30))
    validate_feat_prerequisites = StrictBoolean(**default(True))


SCHEMAS = RulesetSchemas(
    ruleset="pathfinder",
    base=PathfinderCommandSchema,
    options=PathfinderOptionsSchema,
    commands=(
        PathfinderAdvanceRoundSchema,
        PathfinderAddCreatureSchema,
        PathfinderMoveCreatureSchema,
        PathfinderPlaceEngineSchema,
        PathfinderAddStructureSchema,
        PathfinderAssignCrewSchema,
        PathfinderSetWindSchema,
        PathfinderCastEngineSpellSchema,
        PathfinderAssembleSchema,
        PathfinderMoveEngineSchema,
        PathfinderLoadSchema,
        PathfinderAimSchema,
        PathfinderFireSchema,
        PathfinderObserveSchema,
        PathfinderRepairSchema,
        PathfinderDisableSchema,
        PathfinderRamSchema,
        PathfinderBreakSchema,
        PathfinderOperateGateSchema,
        PathfinderRaiseBridgeSchema,
        PathfinderUseCorvusSchema,
        PathfinderDislodgeCorvusSchema,
        PathfinderCrushSchema,
    ),
)
