"""What the API answers: battles, accepted commands, log entries with their outcomes, states and rulesets."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields

from schemas.base import described, one_of
from schemas.registry import reason_component, schema_rulesets
from schemas.results import result_component

HASH = {"description": "hex SHA-256 of the entry chain"}
HIDDEN_RULE = (
    "epic's orders, EP-ORDER-05: until the reveal, to every token but the GM's and the giving side's"
)


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


OUTCOME_STATUS, OUTCOME_STATUSES = "OutcomeStatus", ("applied", "rejected")


class OutcomeSchema(ViewSchema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    status = fields.Raw(  # no type of its own: the anyOf is the whole of it, one enum for generated clients
        required=True,
        allow_none=True,
        metadata={
            "description": f"null only when the outcome is shown hidden ({HIDDEN_RULE})",
            "anyOf": [{"$ref": f"#/components/schemas/{OUTCOME_STATUS}"}, {"type": "null"}],
        },
    )
    reason = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "the spec's code when rejected (the battle's ruleset's list); null when applied",
            "anyOf": [
                *({"$ref": f"#/components/schemas/{reason_component(name)}"} for name in schema_rulesets()),
                {"type": "null"},
            ],
        },
    )
    detail = fields.Dict(
        allow_none=True,
        required=True,
        metadata={
            "description": "when rejected, what caused it: the field and id, the phase and the allowed ones, "
            'the die (`{"field": "stand_id", "id": "ghost"}`, `{"slot": "damage", "faces": 8, "value": 9}`); '
            "null when applied or when the rules name nothing more"
        },
    )
    result = fields.Dict(
        allow_none=True,
        required=True,
        metadata={
            "description": "null when rejected; when applied, the shape of the command `type`'s result "
            "(`EpicClimbResult` for an epic `climb`, …)",
            "anyOf": [
                *({"$ref": f"#/components/schemas/{result_component(name)}"} for name in schema_rulesets()),
                {"type": "null"},
            ],
        },
    )
    rolls = fields.List(fields.Nested(RollSchema), required=True)
    summary = fields.String(
        required=True,
        metadata={"description": "one line in the answer's Content-Language (Accept-Language: en, fr)"},
    )
    changes = fields.List(fields.Dict(), required=True, allow_none=True, **described("null when hidden"))
    hash = fields.String(required=True, metadata=HASH)
    hidden = fields.Boolean(
        **described(
            f"true when shown hidden ({HIDDEN_RULE}): `status`, `reason`, `detail`, `result` and `changes` "
            "are null, `rolls` is empty and `summary` says only that an order was given; absent otherwise"
        )
    )


class EventSchema(ViewSchema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    data = fields.Dict(required=True, allow_none=True, **described("null when hidden"))
    dice = fields.Dict(required=True, allow_none=True, **described("null when hidden"))
    schema_version = fields.Integer(required=True)
    actor = fields.String(required=True)
    idempotency_key = fields.String(
        allow_none=True,
        required=True,
        **described(
            "the one sent; for a hidden command sent without one, `salt-` and 128 random bits the service "
            "chose, so that its hash hides a secret; null when hidden"
        ),
    )
    recorded_at = fields.String(required=True)
    prev_hash = fields.String(required=True)
    hash = fields.String(required=True, metadata=HASH)
    hidden = fields.Boolean(
        **described(
            f"true when the entry is shown hidden ({HIDDEN_RULE}): `data`, `dice` and `idempotency_key` are "
            "null, version, type, actor, time and both hashes kept, so the chain links; once revealed the "
            "whole entry is served and hashes to `hash`. Absent from whole entries (and from exports)"
        )
    )
    outcome = fields.Nested(OutcomeSchema, allow_none=True, required=True, **described("null while pending"))


class BattleStateSchema(ViewSchema):
    ruleset = fields.String(required=True)
    rules_version = fields.String(required=True)
    options = fields.Dict(required=True)
    version = fields.Integer(required=True)
    concluded = fields.Boolean(required=True)
    dice_commitment = fields.String(required=True)
    game = fields.Dict(
        required=True,
        metadata={
            "description": "the ruleset's own state; while orders are hidden from the reader "
            f'({HIDDEN_RULE}), every `order` it does not own reads `"hidden"`'
        },
    )
    undoable = fields.Integer(
        required=True, metadata={"description": "the version an `undo` would cancel now (0: none)"}
    )


class RulesetSummarySchema(ViewSchema):
    name = fields.String(required=True)
    title = fields.String(required=True)
    rules_version = fields.String(required=True)


class CommandDescriptionSchema(ViewSchema):
    doc = fields.String(**described("what the command does, with its rule ids"))
    phases = fields.List(fields.String(), **described("the phases it may be sent in (all when empty)"))
    dice = fields.List(fields.String(), **described("the dice slots it may draw from"))
    referee_only = fields.Boolean(**described("only a GM token may send it"))
    body = fields.Dict(**described("the request body, as a JSON Schema 2020-12 document"))
    example = fields.Dict(**described("an example body"))


class DiceSlotDescriptionSchema(ViewSchema):
    die = fields.String(**described("d6, d20, … or `varies` where the engine or ammunition decides"))
    per_roll = fields.Integer(**described("values one roll takes from the slot"))
    doc = fields.String()
    drawn_by = fields.List(fields.String(), **described("commands that draw from it"))


class OptionDescriptionSchema(ViewSchema):
    default = fields.Raw()
    doc = fields.String(**described("what it changes, with its rule id"))
    schema = fields.Dict(**described("its values, as JSON Schema 2020-12"))


class RulesetDescriptionSchema(ViewSchema):
    """One shape for every ruleset, read off the command records (rules/describe.py)."""

    name = fields.String()
    title = fields.String()
    rules_version = fields.String()
    phases = fields.List(fields.String(), **described("the turn's phases in order; [] for rounds only"))
    commands = fields.Dict(keys=fields.String(), values=fields.Nested(CommandDescriptionSchema))
    dice_slots = fields.Dict(keys=fields.String(), values=fields.Nested(DiceSlotDescriptionSchema))
    options = fields.Dict(keys=fields.String(), values=fields.Nested(OptionDescriptionSchema))
    reason_codes = fields.Dict(
        keys=fields.String(), values=fields.String(), **described("every reason code with its meaning")
    )
    catalog = fields.Dict(**described("pathfinder only: the engine catalog"))


class HealthSchema(ViewSchema):
    status = one_of("ok", "unavailable", required=True)
    checks = fields.Dict(keys=fields.String(), values=fields.String())
