"""Derived keys in Redis: outcomes stream, state, snapshots; all rebuilt from the log."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from eventstore import keys, lua
from eventstore.config import RedisClient
from eventstore.errors import UnknownBattle
from eventstore.protocol import require_consecutive
from eventstore.records import Projection
from eventstore.stream_fields import text, version_of

OUTCOME_FIELD = "outcome"
# one XREAD BLOCK stays under redis-py's default 5 s socket timeout; longer waits loop
MAX_BLOCK_MS = 1000


class RedisDerived:
    def __init__(self, client: RedisClient) -> None:
        self._client = client
        self._save_script = lua.register(client, "save_projection")

    def projection(self, battle_id: str) -> Projection | None:
        version, state = self._client.hmget(keys.state(battle_id), ["version", "state"])
        if version is None or state is None:
            return None
        return Projection(version=int(version), state=text(state))

    def projected_version(self, battle_id: str) -> int:
        version = self._client.hget(keys.state(battle_id), "version")
        return int(version) if version is not None else 0

    def save_projection(
        self,
        battle_id: str,
        *,
        state: Projection,
        outcomes: Sequence[tuple[int, str]],
        snapshots: Sequence[Projection] = (),
    ) -> bool:
        saved = int(self._save_script(*save_call(battle_id, state, outcomes, snapshots)))
        if saved < 0:
            raise UnknownBattle(battle_id)
        return saved == 1

    def outcome(self, battle_id: str, version: int) -> str | None:
        if version < 1:
            return None
        rows = self._client.xrange(keys.outcomes(battle_id), f"0-{version}", f"0-{version}")
        return outcome_of(rows[0]) if rows else None

    def outcomes(self, battle_id: str, *, after: int = 0, limit: int = 100) -> list[tuple[int, str]]:
        if limit <= 0:
            return []
        rows = self._client.xrange(keys.outcomes(battle_id), f"0-{after + 1}", "+", count=limit)
        return [(version_of(row[0]), outcome_of(row)) for row in rows]

    def wait_outcome(self, battle_id: str, version: int, timeout_s: float) -> str | None:
        found = self.outcome(battle_id, version)
        deadline = time.monotonic() + timeout_s
        while found is None and version >= 1:
            left_ms = int((deadline - time.monotonic()) * 1000)
            if left_ms <= 0:
                return None
            # Reading after v-1 wakes on the first outcome past v-1, even one landed since the XRANGE above.
            block = min(left_ms, MAX_BLOCK_MS)
            reply = self._client.xread({keys.outcomes(battle_id): f"0-{version - 1}"}, count=1, block=block)
            for _stream, rows in reply or []:
                if version_of(rows[0][0]) != version:
                    return None  # a later outcome without this one: a stream only grows, so it cannot come
                found = outcome_of(rows[0])
        return found

    def snapshot_at_or_before(self, battle_id: str, version: int) -> Projection | None:
        index = keys.snapshot_versions(battle_id)
        found = self._client.zrevrangebyscore(index, version, "-inf", start=0, num=1)
        if not found:
            return None
        state = self._client.hget(keys.snapshots(battle_id), found[0])
        return None if state is None else Projection(version=int(found[0]), state=text(state))

    def delete_derived(self, battle_id: str) -> None:
        self._client.delete(
            keys.outcomes(battle_id),
            keys.state(battle_id),
            keys.snapshots(battle_id),
            keys.snapshot_versions(battle_id),
        )


def save_call(
    battle_id: str, state: Projection, outcomes: Sequence[tuple[int, str]], snapshots: Sequence[Projection]
) -> tuple[list[str], list[str | int]]:
    """The keys and arguments of save_projection.lua (its reply: 1 saved, 0 guarded out, -1 no battle)."""
    require_consecutive(outcomes)
    args: list[str | int] = [state.version, state.state, len(outcomes)]
    for version, outcome in outcomes:
        args += [version, outcome]
    for snapshot in snapshots:
        args += [snapshot.version, snapshot.state]
    script_keys = [
        keys.outcomes(battle_id),
        keys.state(battle_id),
        keys.snapshots(battle_id),
        keys.snapshot_versions(battle_id),
        keys.log(battle_id),
    ]
    return script_keys, args


def outcome_of(row: tuple[Any, Any]) -> str:
    fields = {text(k): v for k, v in row[1].items()}
    return text(fields[OUTCOME_FIELD])
