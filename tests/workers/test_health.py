"""The worker container's healthcheck: healthy only while a worker of this host is registered and beating."""

from __future__ import annotations

from typing import Any

import redis
from rq import Worker
from rq.serializers import JSONSerializer

from workers.health import healthy_here
from workers.queue import projection_queue


def test_no_registered_worker_is_unhealthy(redis_client: redis.Redis[Any]) -> None:
    assert not healthy_here(redis_client)


def test_a_registered_beating_worker_of_this_host_is_healthy(redis_client: redis.Redis[Any]) -> None:
    worker = Worker([projection_queue(redis_client)], connection=redis_client, serializer=JSONSerializer)
    worker.register_birth()  # type: ignore[no-untyped-call]
    worker.heartbeat()
    try:
        assert healthy_here(redis_client)
        assert not healthy_here(redis_client, hostname="another-host")
    finally:
        worker.register_death()  # type: ignore[no-untyped-call]
