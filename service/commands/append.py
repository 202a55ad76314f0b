"""The store call of one command: its entry, `If-Match` as the version expected, the key's hold, and a side
token's ownership judged on the state at the very head the entry is appended after."""

from __future__ import annotations

import time
from dataclasses import dataclass

from eventstore.clock import utc_now
from eventstore.errors import AppendContention, TokenRefused, VersionConflict
from eventstore.records import Appended, AppendRequest, Budget, Head, NewEntry
from replay.folds import battle_at
from schemas.commands import LoadedCommand
from service.access import auth
from service.access.auth import Principal
from service.access.tokens import SIDE
from service.commands.ownership import permit
from service.deps import Services
from service.http.etags import matches_head
from telemetry.metrics import APPEND_SECONDS

SCHEMA_VERSION = 1
STALE = -1  # an expected version no head has: the store answers a 412 unless the key replays
SIDE_TRIES = 8  # each retry means another command landed first; past this the client is told to retry


@dataclass(frozen=True, slots=True, kw_only=True)
class Append:
    battle_id: str
    ruleset: str
    command: LoadedCommand
    principal: Principal
    idempotency_key: str | None
    fingerprint: str | None
    lease_s: float  # how long the key counts as in flight (0: the append decides the answer)
    if_match: str | None  # the header as sent, read with the key by the endpoint: appending reads no request
    budget: Budget | None  # the token's rate budget, counted by the append itself


def append(deps: Services, job: Append) -> Appended:
    if job.principal.role == SIDE:
        return _append_for_a_side(deps, job)
    head = deps.store.head(job.battle_id) if job.if_match is not None else None
    return _append(deps, job, _expected_version(head, job))


def _append_for_a_side(deps: Services, job: Append) -> Appended:
    """Ownership is judged at head v and the append expects v, so no entity can appear with the other
    side's id in between; without If-Match a moved head is simply judged again."""
    created = deps.battles.created(job.battle_id)
    for _ in range(SIDE_TRIES):
        head = deps.store.head(job.battle_id)
        expected = _expected_version(head, job)
        game = battle_at(deps.store, deps.folds, created, job.battle_id, head.version).game
        permit(job.principal, job.ruleset, job.command, game)
        try:
            return _append(deps, job, head.version if expected is None else expected)
        except VersionConflict:
            if expected is not None:
                raise
    raise AppendContention(deps.store.head(job.battle_id).version)


def _append(deps: Services, job: Append, expected: int | None) -> Appended:
    entry = NewEntry(
        type=job.command.type,
        data=job.command.data,
        schema_version=SCHEMA_VERSION,
        actor=job.principal.actor,
        idempotency_key=job.idempotency_key,
        recorded_at=utc_now(),
        dice=job.command.dice,
    )
    # marking the battle pending and re-checking the token ride on the append's round trip
    started = time.perf_counter()
    try:
        request = AppendRequest(
            battle_id=job.battle_id,
            entry=entry,
            expected_version=expected,
            fingerprint=job.fingerprint,
            mark_pending=True,
            retain_s=deps.config.idempotency_ttl_s,
            lease_s=job.lease_s,
            token_digest=job.principal.digest,
            budget=job.budget,
        )
        return deps.store.append(request)
    except TokenRefused:
        if job.principal.digest is not None:
            deps.tokens.drop(job.battle_id, job.principal.digest)
        raise auth.unauthorized("This token was revoked.", job.principal.token_id) from None
    finally:
        APPEND_SECONDS.labels(job.ruleset).observe(time.perf_counter() - started)


def _expected_version(head: Head | None, job: Append) -> int | None:
    """The head `If-Match` names (None without one, or for `*`); the store re-checks it atomically, so a
    concurrent append still gets a 412. A stale tag is a 412 at once, unless an Idempotency-Key may
    still replay: then the store, which checks the key first, answers."""
    named = matches_head(job.if_match, head) if head is not None else None
    if named is False and job.idempotency_key is None:
        raise VersionConflict(head.version if head else 0)
    if named is False:
        return STALE
    return head.version if named and head else None
