"""Appending one command: check its shape and who may send it, append it, schedule the fold, optionally
await its outcome; a keyed command keeps what it answered for replays."""

from __future__ import annotations

import logging

from flask import Response, request
from redis.exceptions import RedisError

from eventstore.errors import CountedRefusal
from eventstore.records import Appended
from schemas.commands import load_command
from service.access import auth, battle_budgets
from service.commands import answers, idempotency
from service.commands.append import Append, append
from service.deps import Services
from service.http.json_io import prefer_wait, read_json
from service.reading import hiding
from service.reading.language import language

log = logging.getLogger(__name__)


def submit(deps: Services, battle_id: str) -> Response:
    ruleset = deps.battles.ruleset_of(battle_id)
    body = read_json()
    key = idempotency.key()
    wait_s = prefer_wait(deps.config.max_wait_s)
    command = load_command(ruleset, body)
    recorded = key or hiding.salt(ruleset, command.type)  # a hidden order's hash must hide a secret too
    job = Append(
        battle_id=battle_id,
        ruleset=ruleset,
        command=command,
        principal=auth.current(),
        idempotency_key=recorded,
        fingerprint=idempotency.fingerprint(body) if recorded else None,
        # without a wait the answer is the 202 the append itself decides: nothing is in flight after it
        lease_s=idempotency.lease_s(deps) if key and wait_s is not None else 0.0,
        if_match=request.headers.get("If-Match"),
        budget=battle_budgets.budget(),
    )
    try:
        appended = append(deps, job)
    except CountedRefusal as refused:
        battle_budgets.note(refused.spent)
        raise
    battle_budgets.note(appended.spent)
    if appended.replayed:
        return idempotency.replay(deps, job, appended)
    if appended.enqueue:
        deps.scheduler.enqueue()
    response, answer = _answer(deps, job, appended, wait_s)
    if key and wait_s is not None:
        idempotency.remember(deps, battle_id, key, appended.version, answer)
    return response


def _answer(deps: Services, job: Append, appended: Appended, wait_s: float | None) -> tuple[Response, str]:
    """The response, and the short answer a replay rebuilds it from (service/commands/idempotency.py)."""
    battle_id = job.battle_id
    # a preference, not an order (RFC 7240): past SIEGE_MAX_WAITERS waits the answer is the 202 at once
    if wait_s is not None and deps.waiters.acquire(blocking=False):
        try:
            outcome = _await_outcome(deps, battle_id, appended.version, wait_s)
        finally:
            deps.waiters.release()
        if outcome is not None:
            lang = language()
            answered = answers.outcome(
                job.ruleset, battle_id, appended.version, outcome, job.command.data, lang, wait_s
            )
            return answered, idempotency.waited(wait_s, lang)
    return answers.accepted(battle_id, appended.version, appended.hash), idempotency.ACCEPTED


def _await_outcome(deps: Services, battle_id: str, version: int, wait_s: float) -> str | None:
    """The command is in the log already: a failed wait must still answer 202, never a 5xx that
    invites a blind retry. The process's hub reads the outcome, one read for all its waiters."""
    try:
        return deps.hub.wait_outcome(battle_id, version, wait_s)
    except (RedisError, OSError) as error:
        log.warning("waiting for the outcome of %s v%d failed: %s", battle_id, version, error)
        return None
