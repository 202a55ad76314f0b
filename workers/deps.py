"""What a job needs, built once per worker process from StoreConfig.from_env()."""

from __future__ import annotations

import sys
from dataclasses import replace
from functools import cache

from rq import Queue

from eventstore.config import StoreConfig, connect
from eventstore.redis_store import RedisEventStore, open_store
from webhooks.settings import WebhookSettings
from workers.queue import enqueue_delivery, enqueue_projection, projection_queue, webhook_queue
from workers.webhook_schedule import wake_all


def configured() -> bool:
    """At a process's start: False, having said why, when the store settings cannot work (so it exits
    at once with the reason instead of failing its first job)."""
    try:
        config()
        webhook_settings()
    except (ValueError, RuntimeError) as error:
        print(f"siege: cannot start: {error}", file=sys.stderr, flush=True)
        return False
    return True


@cache
def config() -> StoreConfig:
    found = StoreConfig.from_env()
    if not found.redis_url:
        raise RuntimeError("workers need REDIS_URL (make run and compose set it)")
    return found


# cached: a SimpleWorker runs thousands of jobs in one process and should reuse one connection pool
@cache
def store() -> RedisEventStore:
    # a cluster client when SIEGE_STORE_CLUSTER=1; workers append nothing, so they wait for no replica
    return open_store(replace(config(), ack_replicas=0))


@cache
def queue() -> Queue:
    # always a plain client: RQ cannot run on a cluster (StoreConfig refuses a cluster without its own queue)
    return projection_queue(connect(str(config().queue_redis_url or config().redis_url)))


def requeue_projection() -> None:
    enqueue_projection(queue())


@cache
def webhook_settings() -> WebhookSettings:
    return WebhookSettings.from_env()


@cache
def webhooks_queue() -> Queue:
    return webhook_queue(queue().connection)


def enqueue_webhook(battle_id: str, webhook_id: str) -> None:
    enqueue_delivery(webhooks_queue(), battle_id, webhook_id)


def wake_webhooks(battle_ids: list[str]) -> None:
    """After a drain round wrote outcomes: a delivery job per webhook of those battles not claimed yet."""
    wake_all(store(), store(), enqueue_webhook, battle_ids)
