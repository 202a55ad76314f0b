"""Appending one command: check its shape, append it, schedule the fold, optionally await its outcome."""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from flask import Response, request
from redis.exceptions import RedisError

from eventstore.protocol import Appended, NewEntry, VersionConflict
from rules.codec import canonical_json
from schemas.commands import LoadedCommand, load_command
from service.auth import current_actor
from service.clock import utc_now
from service.deps import Services
from service.httpio import entity_tags, json_response, prefer_wait, read_json
from service.problems import validation_problem

SCHEMA_VERSION = 1
MAX_IDEMPOTENCY_KEY = 255
log = logging.getLogger(__name__)


def submit(deps: Services, battle_id: str) -> Response:
    ruleset = deps.battles.ruleset_of(battle_id)
    body = read_json()
    command = load_command(ruleset, body)
    appended = _append(deps, battle_id, command, body)
    if appended.enqueue:
        deps.scheduler.enqueue()
    location = f"/battles/{battle_id}/events/{appended.version}"
    wait_s = prefer_wait(deps.config.max_wait_s)
    if wait_s is not None:
        outcome = _await_outcome(deps, battle_id, appended.version, wait_s)
        if outcome is not None:
            return json_response(
                outcome, 200, {"Location": location, "Preference-Applied": f"wait={wait_s:g}"}
            )
    accepted = {"version": appended.version, "hash": appended.hash, "status": "accepted"}
    return json_response(accepted, 202, {"Location": location})


def _await_outcome(deps: Services, battle_id: str, version: int, wait_s: float) -> str | None:
    """The command is in the log already: a failed wait must still answer 202, never a 5xx that
    invites a blind retry."""
    try:
        return deps.store.wait_outcome(battle_id, version, wait_s)
    except (RedisError, OSError) as error:
        log.warning("waiting for the outcome of %s v%d failed: %s", battle_id, version, error)
        return None


def _append(deps: Services, battle_id: str, command: LoadedCommand, body: Any) -> Appended:
    key = _idempotency_key()
    entry = NewEntry(
        type=command.type,
        data=command.data,
        schema_version=SCHEMA_VERSION,
        actor=current_actor(),
        idempotency_key=key,
        recorded_at=utc_now(),
        dice=command.dice,
    )
    fingerprint = hashlib.sha256(canonical_json(body).encode()).hexdigest() if key else None
    expected = _expected_version(deps, battle_id)
    # marking the battle pending rides on the append's round trip (one Redis call per command)
    return deps.store.append(
        battle_id, entry, expected_version=expected, fingerprint=fingerprint, mark_pending=True
    )


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY:
        raise validation_problem({"Idempotency-Key": [f"Between 1 and {MAX_IDEMPOTENCY_KEY} characters."]})
    return key


def _expected_version(deps: Services, battle_id: str) -> int | None:
    """`If-Match` names the head the client saw: its chain hash (the ETag) or its version number."""
    tags = entity_tags(request.headers.get("If-Match"))
    if tags is None or "*" in tags:
        return None
    head = deps.store.head(battle_id)
    if head.hash in tags or str(head.version) in tags:
        return head.version  # the store re-checks atomically: a concurrent append still gets a 412
    raise VersionConflict(head.version)
