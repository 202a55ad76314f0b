"""What the append script means when it wrote nothing: a replay from the key's idempotency record, or the
refusal it stands for."""

from __future__ import annotations

from typing import Any

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
