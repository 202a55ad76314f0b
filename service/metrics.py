"""What a metrics scrape reads: the Prometheus text of every process (telemetry/exposition.py), plus queue
depth read at scrape time; public by default, off, or behind a token of its own (SIEGE_METRICS)."""

from __future__ import annotations

import hmac
import logging
from collections.abc import Iterator
from typing import Any

from flask import Response, request
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from redis import Redis
from redis.exceptions import RedisError
from rq import Queue

from eventstore.queues import WEBHOOK_QUEUES, WORKER_QUEUES
from service.access import auth
from service.config import METRICS_OFF, METRICS_ON, ServiceConfig
from service.http.problems import Problem
from telemetry.exposition import CONTENT_TYPE, exposition

log = logging.getLogger(__name__)


class QueueDepth(Collector):
    """Jobs waiting on each RQ queue, read from the queue Redis when scraped (a gauge no process keeps)."""

    def __init__(self, connection: Redis[Any]) -> None:
        self._queues = [Queue(name, connection=connection) for name in (*WORKER_QUEUES, *WEBHOOK_QUEUES)]

    def collect(self) -> Iterator[Metric]:
        depth = GaugeMetricFamily("siege_queue_depth", "Jobs waiting on an RQ queue", labels=["queue"])
        try:
            for queue in self._queues:
                depth.add_metric([queue.name], queue.count)
        except (RedisError, OSError) as error:  # a scrape still reports every other metric
            log.warning("queue depth not read: %s", error)
            return
        yield depth


def queue_depth_from_env() -> QueueDepth:
    """For gunicorn's master, which serves SIEGE_METRICS_BIND and has no app: the queue from the env."""
    config = ServiceConfig.from_env()
    return QueueDepth(Redis.from_url(config.queue_url, socket_connect_timeout=1, socket_timeout=1))


def metrics_response(config: ServiceConfig, queue_redis: Redis[Any]) -> Response:
    admit(config.metrics)
    return Response(exposition([QueueDepth(queue_redis)]), content_type=CONTENT_TYPE)


def admit(mode: str) -> None:
    """`on`: anyone who reaches the port; `off`: a 404; `token:<secret>`: `Authorization: Bearer <secret>`."""
    if mode == METRICS_ON:
        return
    if mode == METRICS_OFF:
        raise Problem(404, "not-found", "Not found", "Metrics are not served on this port (SIEGE_METRICS).")
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    secret = mode.removeprefix("token:")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), secret.encode()):
        raise auth.unauthorized(
            "Metrics need `Authorization: Bearer <the SIEGE_METRICS token>`.", given or None
        )
