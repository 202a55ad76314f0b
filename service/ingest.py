"""Appending one command: check its shape and who may send it, append it, schedule the fold, optionally
await its outcome; a keyed command keeps its response for replays."""

from __future__ import annotations

import json
import logging

from flask import Response, request
from redis.exceptions import RedisError

from eventstore.protocol import Appended
from schemas.commands import load_command
from service import auth, idempotency
from service.appending import Append, append
from service.deps import Services
from service.httpio import json_response, prefer_wait, read_json
from service.messages import language, localized, summarized

log = logging.getLogger(__name__)


def submit(deps: Services, battle_id: str) -> Response:
    ruleset = deps.battles.ruleset_of(battle_id)
    body = read_json()
    key = idempotency.key()
    job = Append(
        battle_id=battle_id,
        ruleset=ruleset,
        command=load_command(ruleset, body),
        principal=auth.current(),
        idempotency_key=key,
        fingerprint=idempotency.fingerprint(body) if key else None,
        if_match=request.headers.get("If-Match"),
    )
    appended = append(deps, job)
    if appended.replayed:
        return idempotency.replay(battle_id, appended)
    if appended.enqueue:
        deps.scheduler.enqueue()
    response = _answer(deps, job, appended)
    if key:
        idempotency.remember(deps, battle_id, key, appended.version, response)
    return response


def _answer(deps: Services, job: Append, appended: Appended) -> Response:
    battle_id = job.battle_id
    location = f"/battles/{battle_id}/events/{appended.version}"
    wait_s = prefer_wait(deps.config.max_wait_s)
    # a preference, not an order (RFC 7240): past SIEGE_MAX_WAITERS waits the answer is the 202 at once
    if wait_s is not None and deps.waiters.acquire(blocking=False):
        try:
            outcome = _await_outcome(deps, battle_id, appended.version, wait_s)
        finally:
            deps.waiters.release()
        if outcome is not None:
            lang = language()
            told = summarized(job.ruleset, json.loads(outcome), job.command.data, lang)
            headers = {"Location": location, "Preference-Applied": f"wait={wait_s:g}"}
            return localized(json_response(told, 200, headers), lang)
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
