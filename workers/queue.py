"""The projection queue: its name, the jobs' dotted paths and how a worker hands work back to it."""

from __future__ import annotations

from typing import Any

from redis import Redis
from rq import Queue
from rq.serializers import JSONSerializer

QUEUE_NAME = "siege-projection"
PROJECT_PENDING = "workers.projection.project_pending"
REPLAY = "workers.replay.replay_battle"
JOB_TIMEOUT_S = 180  # above the drain budget, so a long drain hands off instead of being killed
RESULT_TTL_S = 60  # projection results are counters for humans, not data: keep the queue Redis small


def projection_queue(connection: Redis[Any]) -> Queue:
    return Queue(QUEUE_NAME, connection=connection, serializer=JSONSerializer)


def enqueue_projection(queue: Queue) -> None:
    """Ask for one more coalesced run; the job drains every pending battle, not just one."""
    queue.enqueue(PROJECT_PENDING, job_timeout=JOB_TIMEOUT_S, result_ttl=RESULT_TTL_S)
