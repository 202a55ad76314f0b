"""`GET /battles/{id}/events`: the log with outcomes, paginated with RFC 8288 links; and one entry."""

from __future__ import annotations

from typing import Any

from flask import Response, request
from marshmallow import RAISE

from schemas.base import StrictSchema, cursor
from schemas.views import EventSchema
from service.access import auth
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.http.etags import not_modified
from service.http.json_io import json_response, language, localized, per_reader
from service.http.problems import Problem
from service.reading.event_view import Telling, event_etag, one_event, page_of

blp = Blueprint("events", __name__, url_prefix="/battles", description="Events: the log and its outcomes.")
LANGUAGE = {
    "Content-Language": {
        "description": "the language of the summaries, from Accept-Language (en, fr; default en)",
        "schema": {"type": "string", "enum": ["en", "fr"]},
    }
}
LINK = {
    "Link": {"description": 'RFC 8288: rel="next" while more entries follow', "schema": {"type": "string"}},
    "ETag": {
        "description": "the last entry's chain hash, with `/pending<n>` while outcomes are pending",
        "schema": {"type": "string"},
    },
    **LANGUAGE,
}
ETAG = {
    "ETag": {
        "description": "the entry's chain hash, with `/pending` until its outcome lands",
        "schema": {"type": "string"},
    },
    **LANGUAGE,
}


class EventsQuerySchema(StrictSchema):
    after = cursor(metadata={"default": 0})
    limit = cursor(1, metadata={"description": "clamped to the page maximum"})


@blp.route("/<battle_id>/events", methods=["GET"])
@blp.access("read")
@blp.arguments(EventsQuerySchema, location="query", as_kwargs=True, unknown=RAISE)
@blp.response(200, EventSchema(many=True), headers=LINK)
@blp.alt_response(304, response="NOT_MODIFIED")
@blp.alt_response(404, response="NOT_FOUND")
def list_events(battle_id: str, after: int = 0, limit: int | None = None) -> Response:
    """List log entries after a version, each with its outcome (null while pending)"""
    deps = services()
    limit = min(limit or deps.config.page_default, deps.config.page_max)
    telling = Telling(ruleset=deps.battles.ruleset_of(battle_id), language=language())
    sight = deps.reveals.sight(deps.store, battle_id, telling.ruleset, auth.reader())
    page = page_of(deps.store, battle_id, after, limit, telling, sight)
    headers: dict[str, Any] = {"ETag": page.etag}
    if page.more and page.events:
        headers["Link"] = f'<{request.path}?after={page.events[-1]["version"]}&limit={limit}>; rel="next"'
    answer = not_modified(page.etag) or json_response(page.events, 200, headers)
    return per_reader(localized(answer, telling.language))


@blp.route("/<battle_id>/events/<int:version>", methods=["GET"])
@blp.access("read")
@blp.response(200, EventSchema, headers=ETAG)
@blp.alt_response(304, response="NOT_MODIFIED")
@blp.alt_response(404, response="NOT_FOUND")
def read_event(battle_id: str, version: int) -> Response:
    """Read one log entry and its outcome (null while pending)"""
    deps = services()
    telling = Telling(ruleset=deps.battles.ruleset_of(battle_id), language=language())
    sight = deps.reveals.sight(deps.store, battle_id, telling.ruleset, auth.reader())
    event = one_event(deps.store, battle_id, version, telling, sight)
    if event is None:
        raise Problem(
            404, "version-not-found", "No such version", f"Battle {battle_id} has no version {version}."
        )
    tag = event_etag(event, telling.language)
    answer = not_modified(tag) or json_response(event, 200, {"ETag": tag})
    return per_reader(localized(answer, telling.language))
