"""The OpenAPI document's `info.description`: how a client goes from a new battle to an audited one."""

from __future__ import annotations

from schemas.problems import PROBLEM_BASE, PROBLEM_TYPES

FLOW = """\
Referees sieges with the exact rules of a ruleset (`GET /rulesets`): clients send commands, the service
appends each to the battle's hash-chained log and folds it through the rules into an outcome and a state.

1. **Create** a battle: `POST /battles` with `{"ruleset": "epic"}` and `Authorization: Bearer <service key>`
   (when the service has one). The answer holds the battle's `id` and its first GM token, shown this once.
2. **Tokens**: the GM mints scoped tokens, `POST /battles/{id}/tokens` with `{"role": "side:attacker"}`
   (or `gm`, `observer`); every later request sends one as `Authorization: Bearer <token>`.
3. **Command**: `POST /battles/{id}/commands` with `{"type": "climb", ...its fields, "dice"?}` (the body's
   examples show one of each type). The shape is checked at once (422, nothing appended); the rules judge
   legality later, so an illegal command is appended and its outcome is `rejected` with the spec's `reason`.
   Send an `Idempotency-Key` to retry safely and `If-Match` for optimistic concurrency.
4. **Wait or poll**: `Prefer: wait=5` answers 200 with the outcome once it is folded, else 202 with
   `Location: /battles/{id}/events/{v}` to poll (send its `ETag` back as `If-None-Match`: 304 until the
   outcome lands).
5. **Read**: `GET /battles/{id}/events` pages through the log with each outcome (RFC 8288 `Link`),
   `GET /battles/{id}/state` the projection, `?at=v` the state at any past version.
6. **Audit**: `GET /battles/{id}/audit` checks the hash chain, a fresh replay and (after `conclude`, which
   reveals the dice seed) every roll.

Each token has one request budget across every endpoint: answers it applies to carry `RateLimit-Policy`
and `RateLimit` (IETF ratelimit-headers draft); past it, a 429 with `Retry-After`. The document is also
served as YAML at `/openapi.yaml`; every operation has a stable `operationId`.

Every error is `application/problem+json` (RFC 9457) with one of these `type`s (`ProblemType`):
"""


def description() -> str:
    rows = [f"| `{slug}` | {status} | {when} |" for slug, (status, when) in PROBLEM_TYPES.items()]
    table = "\n".join(["| type | status | when |", "|---|---|---|", *rows])
    return f"{FLOW}\n{table}\n\neach `{PROBLEM_BASE}<type>`; any other status is `about:blank`.\n"
