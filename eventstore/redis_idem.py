"""Idempotency records in Redis: what a refused append script means, and recording a key's response."""

from __future__ import annotations

from typing import Any

from eventstore import keys, lua
from eventstore.config import RedisClient
from eventstore.protocol import Appended, IdempotencyInFlight, IdempotencyMismatch, VersionConflict
from eventstore.stream_fields import text


def refusal(status: str, reply: list[Any]) -> Appended:
    """The append script's answer when it wrote nothing: a replay, or the exception that says why."""
    if status == "replayed":
        response = text(reply[3]) if len(reply) > 3 else None
        return Appended(version=int(reply[1]), hash=text(reply[2]), replayed=True, response=response)
    if status == "mismatch":
        raise IdempotencyMismatch(int(reply[1]))
    if status == "inflight":
        raise IdempotencyInFlight(int(reply[1]))
    if status == "conflict":
        raise VersionConflict(int(reply[1]))
    raise RuntimeError(f"unexpected append script status {status!r}")


class RedisIdempotency:
    def __init__(self, client: RedisClient) -> None:
        self._response_script = lua.register(client, "idem_response")

    def record_response(self, battle_id: str, key: str, version: int, response: str) -> bool:
        return bool(self._response_script(keys=[keys.idem(battle_id)], args=[key, version, response]))
