"""The answer of `POST .../commands`, for the first request and its replays alike: the 202 of the entry,
or the 200 of its outcome once `Prefer: wait` is met on the process's hub."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from flask import Response
from redis.exceptions import RedisError

from eventstore.records import Appended
from service.deps import Services
from service.http.json_io import json_response, localized
from summaries import summarized
from summaries.lines import Data

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Wait:
    """A `Prefer: wait`: how long (capped), and the language the outcome's summary is told in."""

    seconds: float
    lang: str


def answer(
    deps: Services, ruleset: str, battle_id: str, command: Data, appended: Appended, wait: Wait | None
) -> tuple[Response, Wait | None]:
    """The response, and the wait it met (None: it is the 202)."""
    stored = None if wait is None else _await_outcome(deps, battle_id, appended.version, wait.seconds)
    if wait is None or stored is None:
        return accepted(battle_id, appended.version, appended.hash), None
    return outcome(ruleset, battle_id, appended.version, stored, command, wait), wait


def replayed(
    deps: Services, ruleset: str, battle_id: str, command: Data, appended: Appended, wait: Wait | None
) -> Response:
    """A key's replay: its first request's answer again. An outcome that first request met is read as
    stored, taking no waiter slot and moving no hub cursor back; only one gone since (a rebuild wiped it)
    is waited for again, on the hub as any wait."""
    if wait is not None:
        try:
            stored = deps.store.outcome(battle_id, appended.version)
        except (RedisError, OSError) as error:  # the hub's wait below still may answer it
            log.warning("reading the outcome of %s v%d failed: %s", battle_id, appended.version, error)
            stored = None
        if stored is not None:
            return outcome(ruleset, battle_id, appended.version, stored, command, wait)
    response, _ = answer(deps, ruleset, battle_id, command, appended, wait)
    return response


def accepted(battle_id: str, version: int, digest: str) -> Response:
    """202: appended, the outcome pending; everything in it is the entry's version and hash."""
    body = {"version": version, "hash": digest, "status": "accepted"}
    return json_response(body, 202, {"Location": location(battle_id, version)})


def outcome(ruleset: str, battle_id: str, version: int, stored: str, command: Data, wait: Wait) -> Response:
    """200: the stored outcome of `version` with its summary in the wait's language."""
    told = summarized(ruleset, json.loads(stored), command, wait.lang)
    headers = {"Location": location(battle_id, version), "Preference-Applied": f"wait={wait.seconds:g}"}
    return localized(json_response(told, 200, headers), wait.lang)


def location(battle_id: str, version: int) -> str:
    return f"/battles/{battle_id}/events/{version}"


def _await_outcome(deps: Services, battle_id: str, version: int, wait_s: float) -> str | None:
    """The outcome as the process's hub reads it, one read for all its waiters; None answers 202.

    A preference, not an order (RFC 7240): past SIEGE_MAX_WAITERS waits the answer is the 202 at once. The
    command is in the log already: a failed wait must still answer 202, never a 5xx that invites a blind
    retry."""
    if not deps.waiters.acquire(blocking=False):
        return None
    try:
        return deps.hub.wait_outcome(battle_id, version, wait_s)
    except (RedisError, OSError) as error:
        log.warning("waiting for the outcome of %s v%d failed: %s", battle_id, version, error)
        return None
    finally:
        deps.waiters.release()
