"""Grow a battle's log fast, in the store's own entry format, for benchmarks that need 10^5–10^6 entries."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from eventstore import keys
from eventstore.chain import entry_hash
from eventstore.config import RedisClient
from eventstore.records import NewEntry
from eventstore.roles import Log
from eventstore.stream_fields import to_fields

CHUNK = 2_000  # XADDs per pipeline round trip


def extend(client: RedisClient, store: Log, battle_id: str, commands: Iterable[Mapping[str, Any]]) -> int:
    """Append wire commands `{type, ...fields, dice?}` with a valid hash chain; returns the new head version.

    Pipelined XADDs instead of one append script call each: ~50x faster, and only for benchmarks, where
    nothing else writes to the battle meanwhile (the append script's checks are what is skipped)."""
    head = store.head(battle_id)
    version, prev_hash = head.version, head.hash
    recorded_at = datetime.now(UTC).isoformat()
    pipe = client.pipeline(transaction=False)
    for n, command in enumerate(commands):
        data = dict(command)
        kind, dice = str(data.pop("type")), data.pop("dice", {})
        entry = NewEntry(
            type=kind,
            data=data,
            schema_version=1,
            actor="bench",
            idempotency_key=None,
            recorded_at=recorded_at,
            dice=dice,
        )
        version += 1
        digest = entry_hash(version, entry, prev_hash)
        pipe.xadd(keys.log(battle_id), _pairs(to_fields(entry, prev_hash, digest)), id=f"0-{version}")
        prev_hash = digest
        if n % CHUNK == CHUNK - 1:
            pipe.execute()
    pipe.execute()
    return version


def _pairs(flat: list[str]) -> dict[str, str]:
    return dict(zip(flat[::2], flat[1::2], strict=True))
