"""Idempotency-Key on the webhook operations (roll a secret, recover, redeliver, send a test event), as on
commands: the same key and request answer the first response again and do nothing more; the key used for
another request is a 422 `idempotency-key-reused`, a repeat while the first is still being answered a 409
`idempotency-key-in-flight`. A key belongs to its battle for SIEGE_IDEMPOTENCY_TTL_S; the webhook
operations' keys are apart from the commands'. The fingerprint is the method, the path and the body, so a
key names one request: rolling two webhooks' secrets takes two keys. Only a success is kept: a refusal (a
4xx, a 503) gives the key back, so the request can be sent again under it once its cause is fixed."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

from flask import Response, request
from redis.exceptions import RedisError

from eventstore.records import RequestRecord
from service.commands import idempotency
from service.deps import Services
from service.http.json_io import json_response
from service.http.problems import RETRY_SOON, Problem

LEASE_S = 30.0  # far longer than any of these operations takes: a repeat meanwhile is a 409
Answer = tuple[int, dict[str, Any], Mapping[str, str]]  # status, body, headers
log = logging.getLogger(__name__)


def once(deps: Services, battle_id: str, body: Any, run: Callable[[], Answer]) -> Response:
    """`run()` answered, unless the request's Idempotency-Key already answered it."""
    key = idempotency.key()
    if key is None:
        return _response(*run())
    fingerprint = idempotency.fingerprint({"method": request.method, "path": request.path, "body": body})
    held = deps.access.hold_request(battle_id, key, fingerprint, int(LEASE_S * 1000))
    if held is not None:
        return _replayed(held, fingerprint)
    try:
        status, answer, headers = run()
    except BaseException:
        with contextlib.suppress(RedisError, OSError):  # else the key frees itself after its lease
            deps.access.release_request(battle_id, key, fingerprint)
        raise
    kept = json.dumps({"status": status, "body": answer, "headers": dict(headers)}, sort_keys=True)
    try:
        deps.access.answer_request(
            battle_id, key, fingerprint, kept, int(deps.config.idempotency_ttl_s * 1000)
        )
    except (RedisError, OSError) as error:  # it is done: answer it; a repeat after the lease does it again
        log.warning("could not keep the answer under an Idempotency-Key of %s: %s", battle_id, error)
    return _response(status, answer, headers)


def _replayed(held: RequestRecord, fingerprint: str) -> Response:
    if held.fingerprint != fingerprint:
        detail = "This Idempotency-Key was used for another request on this battle (another path or body)."
        raise Problem(422, "idempotency-key-reused", "Idempotency-Key reused", detail)
    if held.answer is None:
        detail = "The first request with this Idempotency-Key is still being answered."
        raise Problem(
            409, "idempotency-key-in-flight", "Idempotency-Key in flight", detail, headers=RETRY_SOON
        )
    kept = json.loads(held.answer)
    return _response(int(kept["status"]), kept["body"], kept["headers"])


def _response(status: int, body: dict[str, Any], headers: Mapping[str, str]) -> Response:
    return json_response(body, status, headers)
