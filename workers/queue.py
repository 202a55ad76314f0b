"""How a worker reaches the projection and webhook queues and gives them work (names: eventstore.queues)."""

from __future__ import annotations

from typing import Any

from redis import Redis
from rq import Queue

from eventstore.queues import DELIVER_WEBHOOK, PROJECT_PENDING, SERIALIZER


def projection_queue(connection: Redis[Any]) -> Queue:
    return Queue(PROJECT_PENDING.queue, connection=connection, serializer=SERIALIZER)


def enqueue_projection(queue: Queue) -> None:
    """Ask for one more coalesced run; the job drains every pending battle, not just one."""
    queue.enqueue(PROJECT_PENDING.path, **PROJECT_PENDING.options())


def webhook_queue(connection: Redis[Any]) -> Queue:
    return Queue(DELIVER_WEBHOOK.queue, connection=connection, serializer=SERIALIZER)


def enqueue_delivery(queue: Queue, battle_id: str, webhook_id: str) -> None:
    """One job delivering the webhook from its cursor on (the caller holds the webhook's claim)."""
    queue.enqueue(DELIVER_WEBHOOK.path, battle_id, webhook_id, **DELIVER_WEBHOOK.options())
