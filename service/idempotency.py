"""Idempotency-Key on commands (IETF httpapi-idempotency-key draft): the first response is kept and replayed.

A key lives per battle for `SIEGE_IDEMPOTENCY_TTL_S`; its record holds the body's fingerprint, the version it
appended and, once answered, the response (status, headers, body). While the first request is still being
answered (at most the longest `Prefer: wait` and a margin) the same key is a 409."""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from flask import Response, request
from redis.exceptions import RedisError

from eventstore.canonical import canonical_json
from eventstore.protocol import Appended
from service.deps import Services
from service.httpio import JSON_MIMETYPE, json_response
from service.problems import validation_problem

HEADER = "Idempotency-Key"
MAX_KEY = 255
LEASE_MARGIN_S = 10.0  # beyond the longest wait: appending and answering take a moment too
KEPT_HEADERS = ("Location", "Preference-Applied", "Content-Language", "Vary")  # a replay is the original
log = logging.getLogger(__name__)


def key() -> str | None:
    """The key as sent: 1 to 255 printable ASCII characters (the draft's sf-string), else a 422."""
    found = request.headers.get(HEADER)
    if found is not None and not (1 <= len(found) <= MAX_KEY and found.isascii() and found.isprintable()):
        raise validation_problem({HEADER: [f"Between 1 and {MAX_KEY} printable ASCII characters."]})
    return found


def fingerprint(body: Any) -> str:
    """The same command sent twice has one fingerprint however its JSON was spaced or ordered."""
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def lease_s(deps: Services) -> float:
    return deps.config.max_wait_s + LEASE_MARGIN_S


def remember(deps: Services, battle_id: str, idem_key: str, version: int, response: Response) -> None:
    """Keep the answer for replays; a failure only means a replay answers 202 instead (the entry is safe)."""
    kept = {name: response.headers[name] for name in KEPT_HEADERS if name in response.headers}
    record = {"status": response.status_code, "headers": kept, "body": response.get_data(as_text=True)}
    try:
        deps.store.record_response(battle_id, idem_key, version, json.dumps(record))
    except (RedisError, OSError) as error:
        log.warning("could not record the response for %s v%d: %s", battle_id, version, error)


def replay(battle_id: str, appended: Appended) -> Response:
    """The original response, or the 202 it would have been when its request never recorded one."""
    if appended.response is None:
        accepted = {"version": appended.version, "hash": appended.hash, "status": "accepted"}
        return json_response(accepted, 202, {"Location": f"/battles/{battle_id}/events/{appended.version}"})
    record = json.loads(appended.response)
    return Response(record["body"], record["status"], record["headers"], mimetype=JSON_MIMETYPE)
