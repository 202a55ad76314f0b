"""What a job needs, built once per worker process from StoreConfig.from_env()."""

from __future__ import annotations

from functools import cache

from rq import Queue

from eventstore.config import StoreConfig, connect
from eventstore.protocol import EventStore
from eventstore.redis_store import RedisEventStore
from workers.queue import enqueue_projection, projection_queue


@cache
def config() -> StoreConfig:
    found = StoreConfig.from_env()
    if not found.redis_url:
        raise RuntimeError("workers need REDIS_URL (make run and compose set it)")
    return found


# cached: a SimpleWorker runs thousands of jobs in one process and should reuse one connection pool
@cache
def store() -> EventStore:
    return RedisEventStore(connect(str(config().redis_url)))


@cache
def queue() -> Queue:
    return projection_queue(connect(str(config().queue_redis_url or config().redis_url)))


def requeue_projection() -> None:
    enqueue_projection(queue())
