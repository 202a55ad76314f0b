"""The wire shape of every epic command (spec epic §3): field names, ranges and documented defaults."""

from __future__ import annotations

from marshmallow import fields, validate

from schemas.base import (
    StrictBoolean,
    StrictSchema,
    Unique,
    command_type,
    default,
    described,
    entity_id,
    id_list,
    integer,
    one_of,
)
from schemas.dice import Dice
from schemas.epic_parts import EpicOptionsSchema, EpicTargetSchema, EpicWeaponSchema, destination, location
from schemas.registry import RulesetSchemas

ORDERS = ("charge", "advance", "first_fire")
SAVE_MODIFIER = validate.Range(max=0)
AT_LEAST_ONE = validate.Range(min=1)


class EpicCommandSchema(StrictSchema):
    dice = Dice(ruleset="epic")


class EpicAdvancePhaseSchema(EpicCommandSchema):
    type = command_type("advance_phase")


class EpicAddFortificationSchema(EpicCommandSchema):
    type = command_type("add_fortification")
    id = entity_id(required=True)
    kind = one_of("wall", "tower", "gate", "blockhouse", required=True)
    capacity = integer(validate=AT_LEAST_ONE, **described("default: option default_section_capacity"))
    adjacent = id_list(**default([]))
    door = one_of("closed", "open", **default("closed", "gates only"))
    status = one_of("intact", "destroyed", **default("intact"))
    consecutive_failed_saves = integer(validate=validate.Range(min=0, max=1), **default(0))
    jammed = StrictBoolean(**default(False, "gates only"))


class EpicAddStandSchema(EpicCommandSchema):
    type = command_type("add_stand")
    id = entity_id(required=True)
    stand_type = one_of("infantry", "war_engine", "vehicle", "transport_war_engine", required=True)
    side = one_of("attacker", "defender", required=True)
    caf = integer(required=True, validate=validate.Range(min=0))
    has_cc_weapon = StrictBoolean(**default(False))
    capacity = integer(validate=validate.Range(min=0), **default(0, "transports only"))
    speed_cm = integer(required=True, validate=validate.Range(min=0))
    save = integer(allow_none=True, validate=validate.Range(min=2, max=6), **default(None))
    location = location(required=True)


class EpicGiveOrderSchema(EpicCommandSchema):
    """Exactly one of `stand_id` and `gate_id`; both or neither is the rules' `invalid_field`."""

    type = command_type("give_order")
    stand_id = entity_id()
    gate_id = entity_id()
    order = one_of(*ORDERS, required=True)


class EpicMoveSchema(EpicCommandSchema):
    type = command_type("move")
    stand_id = entity_id(required=True)
    to = destination(required=True)
    distance_cm = integer(required=True, validate=validate.Range(min=0))
    via = entity_id(allow_none=True, **described("required to cross between outside and inside"))


class EpicEmbarkSchema(EpicCommandSchema):
    type = command_type("embark")
    stand_id = entity_id(required=True)
    transport_id = entity_id(required=True)


class EpicDisembarkSchema(EpicCommandSchema):
    type = command_type("disembark")
    stand_id = entity_id(required=True)


class EpicClimbSchema(EpicCommandSchema):
    type = command_type("climb")
    stand_id = entity_id(required=True)
    section_id = entity_id(required=True)


class EpicAssaultSchema(EpicCommandSchema):
    type = command_type("assault")
    stand_id = entity_id(required=True)
    section_id = entity_id(required=True)
    defender_id = entity_id(allow_none=True)


class EpicFireSchema(EpicCommandSchema):
    type = command_type("fire")
    stand_id = entity_id(required=True)
    weapon = fields.Nested(EpicWeaponSchema, required=True)
    target = fields.Nested(EpicTargetSchema, required=True)


class EpicBarrageSchema(EpicCommandSchema):
    """Both target lists empty is the rules' `invalid_field` (a combination of fields)."""

    type = command_type("barrage")
    stand_ids = id_list(required=True, validate=[validate.Length(min=1), Unique()])
    weapon_id = entity_id(required=True)
    barrage_points = integer(required=True, validate=validate.Range(min=1))
    kind = one_of("direct", "indirect", required=True)
    save_modifier = integer(validate=SAVE_MODIFIER, **default(0))
    target_stand_ids = id_list(**default([]))
    target_section_ids = id_list(**default([]))
    spotter_id = entity_id(allow_none=True)


class EpicOperateGateSchema(EpicCommandSchema):
    type = command_type("operate_gate")
    gate_id = entity_id(required=True)
    action = one_of("open", "close", required=True)


class EpicRepairSchema(EpicCommandSchema):
    type = command_type("repair")
    gate_id = entity_id(required=True)


SCHEMAS = RulesetSchemas(
    ruleset="epic",
    base=EpicCommandSchema,
    options=EpicOptionsSchema,
    commands=(
        EpicAdvancePhaseSchema,
        EpicAddFortificationSchema,
        EpicAddStandSchema,
        EpicGiveOrderSchema,
        EpicMoveSchema,
        EpicEmbarkSchema,
        EpicDisembarkSchema,
        EpicClimbSchema,
        EpicAssaultSchema,
        EpicFireSchema,
        EpicBarrageSchema,
        EpicOperateGateSchema,
        EpicRepairSchema,
    ),
)
