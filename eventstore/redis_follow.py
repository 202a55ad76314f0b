"""Watching the outcomes streams of many battles at once, for a process's stream reader (service/hub.py).

On one Redis node it is one XREAD BLOCK over every stream. A Redis Cluster refuses a multi-key command
across slots and every battle is a slot of its own ({B}), so there the streams are read grouped by slot in
one pipeline (a round trip per node), again every POLL_S while nothing comes: per process, never per
client."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from redis.cluster import RedisCluster

from eventstore import keys
from eventstore.config import RedisClient
from eventstore.redis_derived import MAX_BLOCK_MS, outcome_of
from eventstore.stream_fields import text, version_of

POLL_S = 0.05  # a cluster's streams are read this often while nothing comes


class RedisFollow:
    def __init__(self, client: RedisClient) -> None:
        self._client = client

    def follow_outcomes(
        self, cursors: Mapping[str, int], timeout_s: float, *, count: int = 100
    ) -> dict[str, list[tuple[int, str]]]:
        streams = {keys.outcomes(b): f"0-{max(v, 0)}" for b, v in cursors.items()}
        battles = {keys.outcomes(b): b for b in cursors}
        deadline = time.monotonic() + max(timeout_s, 0)
        while streams:
            left_ms = int((deadline - time.monotonic()) * 1000)
            if isinstance(self._client, RedisCluster):
                replies = self._read_by_slot(self._client, streams, count)
            else:  # BLOCK 0 would wait forever: a spent timeout reads without blocking
                block = min(left_ms, MAX_BLOCK_MS) if left_ms > 0 else None
                replies = self._client.xread(streams, count=count, block=block) or []
            found = {
                battles[text(stream)]: [(version_of(row[0]), outcome_of(row)) for row in rows]
                for stream, rows in replies
                if rows
            }
            if found or left_ms <= 0:
                return found
            if isinstance(self._client, RedisCluster):
                time.sleep(min(POLL_S, left_ms / 1000))
        return {}

    @staticmethod
    def _read_by_slot(client: RedisCluster[Any], streams: Mapping[str, str], count: int) -> list[Any]:
        by_slot: dict[int, dict[str, str]] = defaultdict(dict)
        for stream, after in streams.items():
            by_slot[client.keyslot(stream)][stream] = after
        pipe = client.pipeline()
        for group in by_slot.values():
            pipe.xread(group, count=count)
        return [reply for replies in pipe.execute() for reply in replies or []]
