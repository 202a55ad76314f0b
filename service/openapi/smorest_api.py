"""The flask-smorest Api subclass: problem+json error components, the security schemes, our custom fields."""

from __future__ import annotations

import http
from typing import Any, cast

from flask_smorest import Api
from flask_smorest.utils import prepare_response
from marshmallow import fields

from rules.describe import dice_schema
from rules.registry import get_ruleset
from schemas.dice import Dice
from schemas.problems import ProblemSchema, problem_types_schema
from schemas.registry import ruleset_schemas, schema_rulesets
from schemas.union import TaggedUnion
from service.access.caller_limits import POLICY_HEADER, STATE_HEADER
from service.endpoints.blueprint import BEARER, SERVICE_KEY
from service.http.problems import PROBLEM_JSON

INTEGER = {"type": "integer"}
# what service/access/caller_limits.py stamps on every answer its budget applies to (IETF ratelimit draft)
RATE_LIMIT_HEADERS = {
    POLICY_HEADER: {
        "description": 'the budget: `"per-token";q=<requests>;w=<seconds>`, one per token (or address)',
        "schema": {"type": "string", "examples": ['"per-token";q=1200;w=60']},
    },
    STATE_HEADER: {
        "description": 'what is left of it: `"per-token";r=<requests left>;t=<seconds until it refills>`',
        "schema": {"type": "string", "examples": ['"per-token";r=1187;t=42']},
    },
}


class SiegeApi(Api):  # type: ignore[misc]
    ERROR_SCHEMA = ProblemSchema

    def _register_error_handlers(self) -> None:
        """service/http/problems.py answers every error; flask-smorest's own JSON errors stay off."""

    def _register_responses(self) -> None:
        for name, header in RATE_LIMIT_HEADERS.items():
            self.spec.components.header(name, header)
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            if status == http.HTTPStatus.TOO_MANY_REQUESTS:
                response["headers"] = {
                    "Retry-After": {"description": "seconds until the budget refills", "schema": INTEGER},
                    **{name: {"$ref": f"#/components/headers/{name}"} for name in RATE_LIMIT_HEADERS},
                }
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)
        default = {"description": "An RFC 9457 problem", "schema": self.ERROR_SCHEMA}
        prepare_response(default, self.spec, PROBLEM_JSON)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, default, lazy=True)
        self.spec.components.schema("ProblemType", problem_types_schema())

    def document_security(self) -> None:
        """The two credentials of service/access/auth.py, as the `security` of each endpoint names them."""
        self.spec.components.security_scheme(
            BEARER,
            {
                "type": "http",
                "scheme": "bearer",
                "description": "a token of the battle: gm, side:<name>, observer",
            },
        )
        self.spec.components.security_scheme(
            SERVICE_KEY,
            {
                "type": "http",
                "scheme": "bearer",
                "description": "the service key, SIEGE_API_KEY, when one is set",
            },
        )

    def tie_options_to_rulesets(self) -> None:
        """Call once the blueprints are in: `POST /battles`'s `options` are the named ruleset's options, as
        the server checks them, not either ruleset's (JSON Schema 2020-12 if/then, which OpenAPI 3.1 has)."""
        body = self.spec.components.schemas["BattleCreate"]
        body["allOf"] = [
            {
                "if": {"properties": {"ruleset": {"const": name}}, "required": ["ruleset"]},
                "then": {"properties": {"options": self.resolve_options(name)}},
            }
            for name in schema_rulesets()
        ]

    def resolve_options(self, ruleset: str) -> dict[str, Any]:
        resolved = self.ma_plugin.converter.resolve_nested_schema(ruleset_schemas(ruleset).options)
        return cast(dict[str, Any], resolved)

    def document_fields(self) -> None:
        for function in (tagged_union2properties, dice2properties):
            self.ma_plugin.converter.add_attribute_function(function)


def tagged_union2properties(self: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    if not isinstance(field, TaggedUnion):
        return {}
    refs = {tag: self.resolve_nested_schema(schema) for tag, schema in field.variants.items()}
    mapping = {tag: ref["$ref"] for tag, ref in refs.items()}
    return {"oneOf": list(refs.values()), "discriminator": {"propertyName": field.tag, "mapping": mapping}}


def dice2properties(self: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    if not isinstance(field, Dice):
        return {}
    described = dice_schema(get_ruleset(field.ruleset))
    return {**described, "description": "client-rolled dice by slot: one value or a list, consumed in order"}
