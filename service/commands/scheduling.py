"""Coalesced projection scheduling: mark the battle pending, enqueue one job only when none is scheduled."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from redis import Redis
from redis.exceptions import RedisError
from rq import Queue

from eventstore.queues import PROJECT_PENDING, SERIALIZER
from eventstore.roles import Schedule

log = logging.getLogger(__name__)


class Scheduler:
    def __init__(self, store: Schedule, queue_redis: Redis[Any]) -> None:
        self._store = store
        self._queue = Queue(PROJECT_PENDING.queue, connection=queue_redis, serializer=SERIALIZER)

    def schedule(self, battle_id: str) -> None:
        """Never fails the request: the command is already safe in the log, and the reconciler
        re-schedules any battle whose projection lags."""
        try:
            if self._store.mark_pending(battle_id):
                self.enqueue()
        except (RedisError, OSError) as error:
            log.warning("could not mark battle %s pending (%s); the reconciler will", battle_id, error)

    def enqueue(self) -> None:
        """Ask for one coalesced projection run; call when `mark_pending` (or an append) said so."""
        try:
            self._queue.enqueue(PROJECT_PENDING.path, **PROJECT_PENDING.options())
        except (RedisError, OSError) as error:
            log.warning("could not enqueue the projection job: %s", error)
            with contextlib.suppress(RedisError, OSError):  # else the scheduled flag expires on its own
                self._store.clear_scheduled()  # so the next command tries to enqueue again
