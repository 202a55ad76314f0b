"""Idempotency-Key on commands (IETF httpapi-idempotency-key draft): the first response is replayed.

A key lives per battle for `SIEGE_IDEMPOTENCY_TTL_S`. Its record keeps what a replay needs and no more
(eventstore/lua/append.lua): a 128-bit fingerprint of the body and the version it appended; the replayed
202 is that entry's version and hash. A `Prefer: wait` request may answer the outcome instead, so until it
has answered (at most the longest wait and a margin) the same key is a 409, and then it records its short
answer: `202`, or `200 <wait> <language>`, from which the replay summarizes the stored outcome again."""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from flask import Response, request
from redis.exceptions import RedisError

from eventstore.canonical import canonical_json
from eventstore.records import Appended
from service.commands import answers
from service.commands.append import Append
from service.deps import Services
from service.http.problems import validation_problem

HEADER = "Idempotency-Key"
MAX_KEY = 255
LEASE_MARGIN_S = 10.0  # beyond the longest wait: appending and answering take a moment too
FINGERPRINT_HEX = 32  # 128 bits of SHA-256: only a client's two bodies under one key are ever compared
ACCEPTED, WAITED = "202", "200"
log = logging.getLogger(__name__)
KEY_FORM = f"Between 1 and {MAX_KEY} printable ASCII characters."


def key() -> str | None:
    """The key as sent, if it is well formed, else a 422."""
    found = request.headers.get(HEADER)
    if found is not None and not well_formed(found):
        raise validation_problem({HEADER: [KEY_FORM]})
    return found


def well_formed(found: str) -> bool:
    """1 to 255 printable ASCII characters (the draft's sf-string); an import holds its keys to it too."""
    return 1 <= len(found) <= MAX_KEY and found.isascii() and found.isprintable()


def fingerprint(body: Any) -> str:
    """The same command sent twice has one fingerprint however its JSON was spaced or ordered."""
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()[:FINGERPRINT_HEX]


def lease_s(deps: Services) -> float:
    return deps.config.max_wait_s + LEASE_MARGIN_S


def waited(wait_s: float, lang: str) -> str:
    """The short answer of a met `Prefer: wait`: the outcome, summarized in `lang`."""
    return f"{WAITED} {wait_s:g} {lang}"


def remember(deps: Services, battle_id: str, idem_key: str, version: int, answer: str) -> None:
    """Keep the short answer for replays; a failure only means a replay answers 202 (the entry is safe)."""
    try:
        deps.access.record_response(battle_id, idem_key, version, answer)
    except (RedisError, OSError) as error:
        log.warning("could not record the answer for %s v%d: %s", battle_id, version, error)


def replay(deps: Services, job: Append, appended: Appended) -> Response:
    """The original response: the outcome it answered, summarized again in its language from the stored
    outcome and the same body (same fingerprint), or the 202 of the entry's version and hash."""
    status, _, said = (appended.response or ACCEPTED).partition(" ")
    if status == WAITED:
        wait, _, lang = said.partition(" ")
        try:
            stored = deps.follow.wait_outcome(job.battle_id, appended.version, float(wait))
        except (RedisError, OSError) as error:  # the entry is safe: its 202, never a 5xx inviting a retry
            log.warning("could not read the outcome of %s v%d: %s", job.battle_id, appended.version, error)
            stored = None
        if stored is not None:
            return answers.outcome(
                job.ruleset, job.battle_id, appended.version, stored, job.command.data, lang, float(wait)
            )
    return answers.accepted(job.battle_id, appended.version, appended.hash)
