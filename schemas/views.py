"""What the API answers: battles, accepted commands, log entries with their outcomes, states and rulesets."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields

from schemas.base import described, one_of

HASH = {"description": "hex SHA-256 of the entry chain (DESIGN §3.2)"}


class ViewSchema(Schema):
    """Answers may grow new members; clients ignore the ones they do not know."""

    class Meta:
        unknown = INCLUDE


class BattleCreatedSchema(ViewSchema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    version = fields.Integer(required=True)
    rules_version = fields.String(required=True)
    options = fields.Dict(required=True)
    dice_commitment = fields.String(required=True, metadata={"description": "sha256(server_seed), hex"})
    gm_token = fields.String(required=True, metadata={"description": "shown once"})


class BattleSummarySchema(ViewSchema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    rules_version = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    options = fields.Dict(required=True)
    dice_commitment = fields.String(required=True)
    created_at = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the log head"})
    head_hash = fields.String(required=True, metadata=HASH)
    projected_version = fields.Integer(required=True, metadata={"description": "0 until the first fold"})


class AcceptedSchema(ViewSchema):
    version = fields.Integer(required=True)
    hash = fields.String(required=True, metadata=HASH)
    status = one_of("accepted", required=True)


class RollSchema(ViewSchema):
    slot = fields.String(required=True)
    die = fields.String(required=True, metadata={"example": "d6"})
    value = fields.Integer(required=True)
    source = one_of("client", "stream", required=True)


class OutcomeSchema(ViewSchema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    status = one_of("applied", "rejected", required=True)
    reason = fields.String(allow_none=True, required=True, **described("the spec's code when rejected"))
    result = fields.Dict(allow_none=True, required=True, metadata={"description": "null when rejected"})
    rolls = fields.List(fields.Nested(RollSchema), required=True)
    summary = fields.String(required=True)
    changes = fields.List(fields.Dict(), required=True)
    hash = fields.String(required=True, metadata=HASH)


class EventSchema(ViewSchema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    data = fields.Dict(required=True)
    dice = fields.Dict(required=True)
    schema_version = fields.Integer(required=True)
    actor = fields.String(required=True)
    idempotency_key = fields.String(allow_none=True, required=True)
    recorded_at = fields.String(required=True)
    prev_hash = fields.String(required=True)
    hash = fields.String(required=True, metadata=HASH)
    outcome = fields.Nested(OutcomeSchema, allow_none=True, required=True, **described("null while pending"))


class BattleStateSchema(ViewSchema):
    ruleset = fields.String(required=True)
    rules_version = fields.String(required=True)
    options = fields.Dict(required=True)
    version = fields.Integer(required=True)
    concluded = fields.Boolean(required=True)
    dice_commitment = fields.String(required=True)
    game = fields.Dict(required=True, metadata={"description": "the ruleset's own state"})


class RulesetSummarySchema(ViewSchema):
    name = fields.String(required=True)
    title = fields.String(required=True)
    rules_version = fields.String(required=True)


class RulesetDescriptionSchema(ViewSchema):
    """`RULESET.describe()`: commands, dice slots, options and catalog, as the ruleset writes them."""

    name = fields.String()
    title = fields.String()
    rules_version = fields.String()


class HealthSchema(ViewSchema):
    status = one_of("ok", "unavailable", required=True)
    checks = fields.Dict(keys=fields.String(), values=fields.String())
