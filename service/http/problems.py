"""The one error shape: every 4xx/5xx is RFC 9457 application/problem+json with a stable `type` URI."""

from __future__ import annotations

import json
import logging
from http import HTTPStatus
from typing import Any, cast

from flask import Flask, Response, request
from marshmallow import ValidationError
from redis import exceptions as redis_errors
from werkzeug.exceptions import HTTPException

from eventstore.errors import (
    AppendContention,
    HeadRegressed,
    IdempotencyInFlight,
    IdempotencyMismatch,
    ReplicasBehind,
    StoreUnavailable,
    UnknownBattle,
    VersionConflict,
)
from replay.folds import VersionNotFound
from replay.jobs import QueueUnavailable, ReplayNotFound
from rules.errors import UnfoldableRules
from schemas.problems import ABOUT_BLANK, PROBLEM_BASE
from telemetry.metrics import HEAD_REGRESSIONS, REPLICA_ACK_TIMEOUTS

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger(__name__)

# status → (slug, title) of the problems the HTTP layer raises; others are `about:blank` (RFC 9457 §4.2.1)
HTTP_PROBLEMS = {
    400: ("bad-request", "The request is malformed"),
    401: ("unauthorized", "A valid token is needed"),
    403: ("forbidden", "The token does not allow this"),
    404: ("not-found", "No such resource"),
    405: ("method-not-allowed", "Method not allowed on this resource"),
    413: ("body-too-large", "The request body is too large"),
    414: ("uri-too-long", "The request line is too long"),
    415: ("unsupported-media-type", "The request body must be application/json"),
    422: ("validation", "The request does not fit the schema"),
    429: ("rate-limited", "Too many requests"),
    431: ("headers-too-large", "The request headers are too large"),
    500: ("internal", "Internal server error"),
}
RETRY_SOON = {"Retry-After": "1"}
STORE_RETRY_AFTER_S = 2  # a restarted Redis answers within a second or two, its AOF loaded
# unreachable, timed out, loading its AOF (BusyLoadingError is a ConnectionError), a cluster without quorum
# or failing over (a replica not yet promoted answers READONLY, a moving slot MOVED, ASK or TRYAGAIN), the
# replicas late to confirm a write
STORE_DOWN = (
    redis_errors.ConnectionError,
    redis_errors.TimeoutError,
    redis_errors.ClusterError,
    redis_errors.RedisClusterException,
    redis_errors.ReadOnlyError,
    redis_errors.TryAgainError,
    redis_errors.AskError,
    StoreUnavailable,
)
# what a server says when it cannot take a write now, where redis-py has no exception class of its own
# (min-replicas-to-write); the others (READONLY, TRYAGAIN, MOVED, ...) are classes in STORE_DOWN
TRANSIENT_REPLIES = ("NOREPLICAS",)


class Problem(Exception):
    """Raise from an endpoint to answer with a problem; extension members go in `extra`."""

    def __init__(
        self,
        status: int,
        slug: str,
        title: str,
        detail: str | None = None,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail or title)
        self.status, self.slug, self.title, self.detail = status, slug, title, detail
        self.headers = headers or {}
        self.extra = extra

    def response(self) -> Response:
        body: dict[str, Any] = {"type": PROBLEM_BASE + self.slug, "title": self.title, "status": self.status}
        if self.detail:
            body["detail"] = self.detail
        body.update(self.extra)
        return Response(json.dumps(body), self.status, self.headers, mimetype=PROBLEM_JSON)


def validation_problem(errors: Any, detail: str = "Nothing was appended.") -> Problem:
    return Problem(422, "validation", HTTP_PROBLEMS[422][1], detail, errors=errors)


def install(app: Flask) -> None:
    app.register_error_handler(Problem, lambda p: p.response())
    app.register_error_handler(ValidationError, lambda e: validation_problem(_messages(e)).response())
    app.register_error_handler(UnknownBattle, _unknown_battle)
    app.register_error_handler(VersionConflict, _version_conflict)
    app.register_error_handler(IdempotencyMismatch, _idempotency_mismatch)
    app.register_error_handler(IdempotencyInFlight, _idempotency_in_flight)
    app.register_error_handler(AppendContention, _contention)
    app.register_error_handler(UnfoldableRules, _unfoldable)
    app.register_error_handler(VersionNotFound, _version_not_found)
    app.register_error_handler(ReplayNotFound, _replay_not_found)
    app.register_error_handler(QueueUnavailable, _queue_unavailable)
    for unavailable in STORE_DOWN:
        app.register_error_handler(unavailable, store_unavailable)
    app.register_error_handler(redis_errors.ResponseError, _store_reply)
    app.register_error_handler(HTTPException, _http_exception)
    app.register_error_handler(Exception, _unexpected)


def _messages(error: ValidationError) -> Any:
    return error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}


def _unknown_battle(error: UnknownBattle) -> Response:
    return Problem(404, "battle-not-found", "No such battle", f"Battle {error} does not exist.").response()


def _version_conflict(error: VersionConflict) -> Response:
    detail = "If-Match does not name the battle's current head: nothing was appended."
    return Problem(412, "stale-version", "Stale version", detail, current_version=error.current).response()


def _idempotency_mismatch(error: IdempotencyMismatch) -> Response:
    detail = f"This Idempotency-Key was used for version {error.version} with a different body."
    return Problem(
        422, "idempotency-key-reused", "Idempotency-Key reused", detail, version=error.version
    ).response()


def _idempotency_in_flight(error: IdempotencyInFlight) -> Response:
    detail = f"The first request with this Idempotency-Key (version {error.version}) is still being answered."
    return Problem(
        409, "idempotency-key-in-flight", "Idempotency-Key in flight", detail, headers=RETRY_SOON
    ).response()


def _unfoldable(error: UnfoldableRules) -> Response:
    detail = f"{error}; this release folds {', '.join(error.supported) or 'none of its versions'}."
    return Problem(
        409, "unsupported-rules", "Rules this release does not fold", detail,
        ruleset=error.ruleset, rules_version=error.rules_version, supported=list(error.supported),
    ).response()  # fmt: skip


def _version_not_found(error: VersionNotFound) -> Response:
    return Problem(404, "version-not-found", "No such version", str(error)).response()


def _replay_not_found(error: ReplayNotFound) -> Response:
    return Problem(404, "replay-not-found", "No such replay job", str(error)).response()


def _queue_unavailable(error: QueueUnavailable) -> Response:
    return Problem(
        503, "queue-unavailable", "The job queue is unavailable", str(error), headers=RETRY_SOON
    ).response()


def _contention(error: AppendContention) -> Response:
    detail = "Other commands kept landing first; nothing was appended. Send it again."
    return Problem(
        409, "contention", "The battle is busy", detail, headers=RETRY_SOON, current_version=error.current
    ).response()


def _store_reply(error: redis_errors.ResponseError) -> Response:
    """A refusal the server means as "not now" (NOREPLICAS under min-replicas-to-write, say) is a 503."""
    if str(error).split(" ", 1)[0] in TRANSIENT_REPLIES:
        return store_unavailable(error)
    return _unexpected(error)


def store_unavailable(error: Exception) -> Response:
    """Redis does not answer: a 503 to retry, never a 500. A command whose append failed on the way may
    still have landed, so the detail asks for a retry with the same Idempotency-Key."""
    if isinstance(error, HeadRegressed):
        HEAD_REGRESSIONS.inc()
        log.error(
            "acknowledged entries lost: %s; the append was refused and the battle's audit says so", error
        )
    elif isinstance(error, ReplicasBehind):
        REPLICA_ACK_TIMEOUTS.inc()
    log.warning("event store unavailable: %s: %s", type(error).__name__, error)
    detail = (
        f"The event store does not answer ({type(error).__name__}). Retry after Retry-After seconds; "
        "send a command again with the same Idempotency-Key, so it is never appended twice."
    )
    headers = {"Retry-After": str(STORE_RETRY_AFTER_S)}
    return Problem(
        503, "store-unavailable", "The event store is unavailable", detail, headers=headers
    ).response()


def _http_exception(error: HTTPException) -> Response:
    if error.response is not None:
        return cast(Response, error.response)  # already a problem, built where it was raised (a 429)
    status = error.code or 500
    headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
    data = getattr(error, "data", None) or {}  # webargs/flask-smorest put parsing errors here
    if status == 422 and "messages" in data:
        return validation_problem(_flatten(data["messages"]), "The request parameters do not fit.").response()
    slug, title = HTTP_PROBLEMS.get(status, ("", HTTPStatus(status).phrase))
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + slug if slug else ABOUT_BLANK,
        "title": title,
        "status": status,
    }
    custom = error.description != type(error).description  # werkzeug's own text reads as boilerplate
    detail = error.description if custom else _ours(status)
    if detail and status != 500:
        body["detail"] = detail
    if status == 413 and request.max_content_length is not None:
        body["max_bytes"] = request.max_content_length
    return Response(json.dumps(body), status, headers, mimetype=PROBLEM_JSON)


def _ours(status: int) -> str | None:
    """Our detail for the errors werkzeug raises with its stock text."""
    if status == 404:
        return f"Nothing is at {request.path}."
    if status == 405:
        return f"{request.path} does not take {request.method}; Allow lists the methods it takes."
    if status == 413:
        cap = request.max_content_length
        limit = f" of {cap} bytes" if cap is not None else ""
        return f"The request body is over this service's limit{limit} (a chunked body counts too)."
    return None


def _unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return _http_exception(error)
    log.exception("unhandled error")  # the trace goes to the log, never to the client
    slug, title = HTTP_PROBLEMS[500]
    return Problem(500, slug, title).response()


def _flatten(messages: dict[str, Any]) -> dict[str, Any]:
    """webargs nests errors under their location (`query`, `json`); clients want the field names."""
    flat: dict[str, Any] = {}
    for per_location in messages.values():
        flat.update(per_location if isinstance(per_location, dict) else {"_schema": per_location})
    return flat
