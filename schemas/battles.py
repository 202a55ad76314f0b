"""The body of `POST /battles`: a ruleset, an optional name and client seed, and that ruleset's options."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, validate

from schemas.base import StrictSchema
from schemas.registry import ruleset_schemas, schema_rulesets


class RulesetOptions(fields.Dict):
    """House rules; checked against the chosen ruleset's options schema once `ruleset` is known."""


class BattleCreateSchema(StrictSchema):
    ruleset = fields.String(required=True, validate=validate.OneOf(schema_rulesets()))
    name = fields.String(allow_none=True, validate=validate.Length(max=200))
    options = RulesetOptions(
        metadata={"description": "the ruleset's house rules; omitted ones take their defaults"}
    )
    client_seed = fields.String(
        validate=validate.Length(max=256),
        metadata={
            "description": "mixed into the dice stream key: sha256(server_seed || client_seed); when omitted "
            "or empty the service draws one (without it the key would be the public dice_commitment)"
        },
    )

    @post_load
    def _check_options(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        options_schema = ruleset_schemas(data["ruleset"]).options()
        try:
            data["options"] = options_schema.load(data.get("options", {}))
        except ValidationError as error:
            raise ValidationError({"options": error.messages}) from error
        return data
