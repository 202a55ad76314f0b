"""Following outcomes in Redis: waiting for one battle's next outcome (XREAD BLOCK on its stream), and
watching the outcomes streams of many battles at once, for a process's stream reader
(service/streams/hub.py).

On one Redis node it is one XREAD BLOCK over every stream, and over the process's own alarm stream, which
interrupt_follow writes to when the reader has a battle to add, and the reader deletes once it woke (a
battle registered before the alarm it raised is in the next read; one registered after rings again). A
Redis Cluster refuses a multi-key command across slots and every battle is a slot of its own ({B}), so
there the streams are read grouped by slot in one pipeline (a round trip per node), again every POLL_S
while nothing comes (an interrupt cuts the pause short): per process, never per client."""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from redis.cluster import RedisCluster

from eventstore import keys
from eventstore.config import RedisClient
from eventstore.redis_derived import outcome_of, read_outcome
from eventstore.stream_fields import text, version_of

# one XREAD BLOCK stays under redis-py's default 5 s socket timeout; longer waits loop
MAX_BLOCK_MS = 1000
POLL_S = 0.05  # a cluster's streams are read this often while nothing comes
ALARM_TTL_MS = 3_600_000  # an alarm stream outlives its process by at most this long


class _Alarm:
    """One process's way to end its reader's wait: a stream of its own on one node, an event on a cluster."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.key = keys.follow_alarm(uuid.uuid4().hex)
        self.rung = threading.Event()


class RedisFollow:
    def __init__(self, client: RedisClient) -> None:
        self._client = client
        self._own_alarm = _Alarm()

    def _alarm(self) -> _Alarm:
        if self._own_alarm.pid != os.getpid():
            self._own_alarm = _Alarm()  # forked: the parent's alarm is the parent's
        return self._own_alarm

    def wait_outcome(self, battle_id: str, version: int, timeout_s: float) -> str | None:
        found = read_outcome(self._client, battle_id, version)
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

    def interrupt_follow(self) -> None:
        alarm = self._alarm()
        if isinstance(self._client, RedisCluster):
            alarm.rung.set()
            return
        pipe = self._client.pipeline(transaction=False)
        pipe.xadd(alarm.key, {"rung": "1"})
        pipe.pexpire(alarm.key, ALARM_TTL_MS)
        pipe.execute()

    def follow_outcomes(
        self, cursors: Mapping[str, int], timeout_s: float, *, count: int = 100
    ) -> dict[str, list[tuple[int, str]]]:
        alarm = self._alarm()
        streams = {keys.outcomes(b): f"0-{max(v, 0)}" for b, v in cursors.items()}
        battles = {keys.outcomes(b): b for b in cursors}
        deadline = time.monotonic() + max(timeout_s, 0)
        while streams:
            left_ms = int((deadline - time.monotonic()) * 1000)
            rung = False
            if isinstance(self._client, RedisCluster):
                replies = self._read_by_slot(self._client, streams, count)
            else:  # BLOCK 0 would wait forever: a spent timeout reads without blocking
                block = min(left_ms, MAX_BLOCK_MS) if left_ms > 0 else None
                watched = {**streams, alarm.key: "0-0"}  # any alarm not deleted yet
                replies = self._client.xread(watched, count=count, block=block) or []
            found: dict[str, list[tuple[int, str]]] = {}
            for stream, rows in replies:
                if text(stream) == alarm.key:
                    rung = True
                elif rows:
                    found[battles[text(stream)]] = [(version_of(row[0]), outcome_of(row)) for row in rows]
            if rung:
                self._client.delete(alarm.key)  # before the reader looks at what it watches again
            if found or rung or left_ms <= 0:
                return found
            if isinstance(self._client, RedisCluster) and alarm.rung.wait(min(POLL_S, left_ms / 1000)):
                alarm.rung.clear()
                return {}
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
