"""How a worker reaches the projection queue and hands work back to it (names and TTLs: eventstore.queues)."""

from __future__ import annotations

from typing import Any

from redis import Redis
from rq import Queue

from eventstore.queues import PROJECT_PENDING, SERIALIZER


def projection_queue(connection: Redis[Any]) -> Queue:
    return Queue(PROJECT_PENDING.queue, connection=connection, serializer=SERIALIZER)


def enqueue_projection(queue: Queue) -> None:
    """Ask for one more coalesced run; the job drains every pending battle, not just one."""
    queue.enqueue(PROJECT_PENDING.path, **PROJECT_PENDING.options())
