"""The one error body (RFC 9457 problem details) every 4xx and 5xx answer carries, and every problem type."""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, fields

PROBLEM_BASE = "https://siege.example/problems/"
ABOUT_BLANK = "about:blank"  # any other status (RFC 9457 §4.2.1)
# slug → (status, when): every `type` this service answers is PROBLEM_BASE + one of these (a test reads the
# code for them)
PROBLEM_TYPES: dict[str, tuple[int, str]] = {
    "bad-request": (400, "the request is malformed (a broken chunked body, a bad header)"),
    "malformed-json": (400, "the body is not I-JSON: not UTF-8, duplicate names, too deep, unsafe numbers"),
    "unauthorized": (
        401,
        "no token, or an unknown, expired, revoked or other battle's token; a used, expired or foreign "
        "stream ticket",
    ),
    "forbidden": (403, 'the token\'s role may not do this (`error="insufficient_scope"`)'),
    "not-found": (404, "no such path"),
    "battle-not-found": (404, "no such battle"),
    "version-not-found": (404, "the battle has no such version"),
    "token-not-found": (404, "the battle has no such token"),
    "ruleset-not-found": (404, "no such ruleset"),
    "replay-not-found": (404, "no such replay job for this battle"),
    "webhook-not-found": (404, "the battle has no such webhook"),
    "method-not-allowed": (405, "the path does not take this method; `Allow` lists those it takes"),
    "idempotency-key-in-flight": (409, "the first request with this Idempotency-Key is still being answered"),
    "contention": (
        409,
        "other commands (or rolls of the webhook's secret) kept landing first; nothing was done, send it "
        "again",
    ),
    "webhook-secret-overlap": (
        409,
        "the secret before the webhook's last roll still signs (until `previous_secret_expires_at`): roll "
        "again after it, or with `overlap_s` 0",
    ),
    "webhook-active": (409, "the webhook is active: nothing to recover without a `from_version`"),
    "outcome-pending": (409, "the version's outcome is not decided yet; retry after `Retry-After`"),
    "stale-version": (412, "If-Match does not name the head; `current_version` does"),
    "body-too-large": (413, "the body is over the limit (`max_bytes`), or chunked"),
    "unsupported-media-type": (415, "the body must be application/json"),
    "validation": (422, "the body or parameters do not fit the schema; `errors` names the fields"),
    "idempotency-key-reused": (
        422,
        "this Idempotency-Key was used with another body (a command's: `version`) or, for a webhook "
        "operation, on another path",
    ),
    "import-invalid": (
        422,
        "the export does not verify, or an entry holds input the API refuses (`kind` `refused`): `version`, "
        "`kind`, `reason` and `line` say where",
    ),
    "import-not-concluded": (422, "the export is of a battle not concluded yet: it cannot carry the seed"),
    "unsupported-rules": (
        409,
        "the battle is pinned to a rules version this release does not fold: its state, time travel and "
        "previews are not computed with other rules (`ruleset`, `rules_version`, `supported`)",
    ),
    "import-unsupported-rules": (
        422,
        "the export's rules version is not one this release folds: `ruleset`, `rules_version` and "
        "`supported` (the versions it folds) say which",
    ),
    "webhook-address-refused": (422, "the webhook URL's host resolves to an address webhooks may not reach"),
    "rate-limited": (429, "the token's request budget is spent; retry after `Retry-After` seconds"),
    "internal": (500, "a fault of the service (never a stack trace)"),
    "queue-unavailable": (503, "the job queue's Redis does not answer; retry after `Retry-After`"),
    "store-unavailable": (503, "the event store does not answer; retry after `Retry-After`"),
    "not-ready": (503, "GET /readyz: a dependency is down, `checks` names it"),
    "too-many-streams": (503, "this API process holds its cap of open streams; retry after `Retry-After`"),
    "battle-streams-full": (429, "the battle holds its share of this process's streams; close one first"),
    "too-many-tokens": (409, "the battle has its cap of live tokens; revoke one first"),
    "orders-hidden": (409, "an export is whole, and orders are hidden from this token until revealed"),
    "token-streams-full": (429, "the token holds its share of this process's streams; close one first"),
}


def problem_types_schema() -> dict[str, Any]:
    """The `ProblemType` component: every problem `type` with its status and meaning."""
    listed = [
        {"const": PROBLEM_BASE + slug, "description": f"{status}: {when}"}
        for slug, (status, when) in PROBLEM_TYPES.items()
    ]
    blank = {"const": ABOUT_BLANK, "description": "any other status: the title is the HTTP reason phrase"}
    return {
        "description": "Every problem `type` this service answers.",
        "type": "string",
        "oneOf": [*listed, blank],
    }


class ProblemSchema(Schema):
    """RFC 9457: extension members beyond these may appear."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(
        required=True,
        metadata={
            "description": "stable URI naming the kind of problem; the `ProblemType` component lists them",
            "examples": [PROBLEM_BASE + "validation"],
        },
    )
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String()
    instance = fields.String()
    errors = fields.Dict(metadata={"description": "validation problems: the offending fields and why"})
    current_version = fields.Integer(metadata={"description": "412: the battle's current head version"})
    version = fields.Integer(metadata={"description": "idempotency-key-reused: the version the key answered"})
    rules_version = fields.String(
        metadata={"description": "import-unsupported-rules: the rules version the battle needs"}
    )
    supported = fields.List(
        fields.String(),
        metadata={"description": "import-unsupported-rules: the ruleset's versions this release folds"},
    )
    previous_secret_expires_at = fields.String(
        metadata={"description": "webhook-secret-overlap: until when the secret before the last roll signs"}
    )
    max_bytes = fields.Integer(
        metadata={"description": "body-too-large: the largest body accepted, in bytes"}
    )
    checks = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "not-ready (GET /readyz): each dependency, `ok` or `unavailable`"},
    )
