"""Idempotency records in Redis: what a refused append script means, and recording a key's response."""

from __future__ import annotations

from typing import Any

from eventstore import keys, lua
from eventstore.config import RedisClient
from eventstore.errors import (
    CountedRefusal,
    IdempotencyInFlight,
    IdempotencyMismatch,
    RateLimited,
    VersionConflict,
)
from eventstore.records import Appended, Spent
from eventstore.stream_fields import text


def refusal(status: str, said: list[Any], spent: Spent | None) -> Appended:
    """The append script's answer when it wrote nothing: a replay, or the exception that says why."""
    if status == "replayed":
        response = text(said[2]) if len(said) > 2 and said[2] is not None else None
        version, digest = int(said[0]), text(said[1])
        return Appended(version=version, hash=digest, replayed=True, response=response, spent=spent)
    error: CountedRefusal
    if status == "limited" and spent is not None:
        error = RateLimited(spent)
    elif status == "mismatch":
        error = IdempotencyMismatch(int(said[0]))
    elif status == "inflight":
        error = IdempotencyInFlight(int(said[0]))
    elif status == "conflict":
        error = VersionConflict(int(said[0]))
    else:
        raise RuntimeError(f"unexpected append script status {status!r}")
    error.spent = spent
    raise error


class RedisIdempotency:
    def __init__(self, client: RedisClient) -> None:
        self._response_script = lua.register(client, "idem_response")

    def record_response(self, battle_id: str, key: str, version: int, response: str) -> bool:
        return bool(self._response_script(keys=[keys.idem(battle_id)], args=[key, version, response]))
