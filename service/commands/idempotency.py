"""A command's Idempotency-Key and its record: the key as sent, what the append holds under it, and the
short answer a replay is rebuilt from (IETF httpapi-idempotency-key draft: the first response is replayed).

A key lives per battle for `SIEGE_IDEMPOTENCY_TTL_S`. Its record keeps what a replay needs and no more
(eventstore/lua/append.lua): a 128-bit fingerprint of the body and the version it appended; the replayed
202 is that entry's version and hash. A `Prefer: wait` request may answer the outcome instead, so until it
has answered (at most the longest wait and a margin) the same key is a 409, and then it records its short
answer: `202`, or `200 <wait> <language>`, from which the replay summarizes the stored outcome again."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

from flask import request
from redis.exceptions import RedisError

from eventstore.canonical import canonical_json
from service.commands.answers import Wait
from service.deps import Services
from service.http.problems import validation_problem

HEADER = "Idempotency-Key"
MAX_KEY = 255
LEASE_MARGIN_S = 10.0  # beyond the longest wait: appending and answering take a moment too
FINGERPRINT_HEX = 32  # 128 bits of SHA-256: only a client's two bodies under one key are ever compared
ACCEPTED, WAITED = "202", "200"
log = logging.getLogger(__name__)
KEY_FORM = f"Between 1 and {MAX_KEY} printable ASCII characters."


@dataclass(frozen=True, slots=True, kw_only=True)
class Hold:
    """What the append records under the entry's key, atomically with the entry."""

    key: str | None  # the entry's: the client's key, or a hidden order's salt (service/reading/hiding.py)
    fingerprint: str | None  # of the body, so the same key with another body is told apart (a 422)
    lease_s: float  # how long the key counts as in flight (0: the append decides the answer)


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


def hold(deps: Services, sent: str | None, body: Any, wait: Wait | None, salt: str | None) -> Hold:
    """The hold of a command whose key is `sent` (a hidden order without one is recorded under `salt`)."""
    recorded = sent or salt  # a hidden order's hash must hide a secret too
    return Hold(
        key=recorded,
        fingerprint=fingerprint(body) if recorded else None,
        # without a wait the answer is the 202 the append itself decides: nothing is in flight after it
        lease_s=deps.config.max_wait_s + LEASE_MARGIN_S if sent and wait is not None else 0.0,
    )


def remember(deps: Services, battle_id: str, sent: str, version: int, waited: Wait | None) -> None:
    """Keep the short answer for replays (`waited`: the wait that was met, None for the 202); a failure only
    means a replay answers 202 (the entry is safe)."""
    answer = ACCEPTED if waited is None else f"{WAITED} {waited.seconds:g} {waited.lang}"
    try:
        deps.access.record_response(battle_id, sent, version, answer)
    except (RedisError, OSError) as error:
        log.warning("could not record the answer for %s v%d: %s", battle_id, version, error)


def first_wait(recorded: str | None) -> Wait | None:
    """The wait the key's first request met, read from its short answer (None: it answered 202, or never
    recorded its answer); its replay answers that outcome again, summarized in the same language."""
    status, _, said = (recorded or ACCEPTED).partition(" ")
    if status != WAITED:
        return None
    seconds, _, lang = said.partition(" ")
    return Wait(float(seconds), lang)
