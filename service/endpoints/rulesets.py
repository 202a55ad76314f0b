"""`GET /rulesets` and `GET /rulesets/{name}`: what battles can be played, with commands, options, catalog."""

from __future__ import annotations

from functools import cache

from flask import Response

from rules.codec import JSON
from rules.describe import describe as describe_ruleset
from rules.registry import get_ruleset
from schemas.registry import schema_rulesets
from schemas.views import RulesetDescriptionSchema, RulesetSummarySchema
from service.endpoints.blueprint import Blueprint
from service.http.json_io import json_response
from service.http.problems import Problem

blp = Blueprint("rulesets", __name__, url_prefix="/rulesets", description="Rulesets: what can be played.")


@blp.route("", methods=["GET"])
@blp.access("public")
@blp.response(200, RulesetSummarySchema(many=True))
def list_rulesets() -> Response:
    """List the rulesets battles can be created with"""
    rulesets = [get_ruleset(name) for name in schema_rulesets()]
    return json_response(
        [{"name": r.name, "title": r.title, "rules_version": r.rules_version} for r in rulesets]
    )


@blp.route("/<name>", methods=["GET"])
@blp.access("public")
@blp.response(200, RulesetDescriptionSchema)
@blp.alt_response(404, response="NOT_FOUND")
def read_ruleset(name: str) -> Response:
    """Describe a ruleset: its commands, dice slots, options and catalog"""
    if name not in schema_rulesets():
        raise Problem(
            404, "ruleset-not-found", "No such ruleset", f"Known rulesets: {', '.join(schema_rulesets())}."
        )
    return json_response(description(name))


@cache
def description(name: str) -> dict[str, JSON]:
    """Read off the declarations once per process: they never change while it runs."""
    return describe_ruleset(get_ruleset(name))
