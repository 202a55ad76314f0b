"""Every accepted command gets its battle folded: marked pending, one coalesced RQ job by dotted path."""

from __future__ import annotations

from typing import Any

import redis
from flask.testing import FlaskClient
from rq import Queue
from rq.serializers import JSONSerializer

from eventstore.config import connect
from eventstore.queues import PROJECT_PENDING
from eventstore.redis_store import RedisEventStore
from service.app import create_app
from tests.fixtures.app import GmClient, config_for
from tests.service.helpers import WALL, accepted, create_battle, head_version


def _queued(redis_client: redis.Redis[Any]) -> list[str | None]:
    queue = Queue(PROJECT_PENDING.queue, connection=redis_client, serializer=JSONSerializer)
    return [job.func_name for job in queue.get_jobs()]


def test_a_command_marks_its_battle_pending_and_queues_one_projection_job(
    client: FlaskClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle_id = create_battle(client)
    for _ in range(3):
        accepted(client, battle_id, WALL)

    assert battle_id in redis_store.take_pending(10)
    assert _queued(redis_client) == [PROJECT_PENDING.path]  # coalesced: not one job per command


def test_a_new_battle_is_scheduled_for_its_first_fold(
    client: FlaskClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle_id = create_battle(client)

    assert redis_store.take_pending(10) == [battle_id]
    assert _queued(redis_client) == [PROJECT_PENDING.path]


def test_commands_are_still_accepted_when_the_queue_redis_is_down(
    redis_store: RedisEventStore, redis_url: str
) -> None:
    queue = connect("redis://127.0.0.1:1/0")
    app = create_app(config_for(redis_url), store=redis_store, queue_redis=queue)
    client = GmClient(app, app.response_class)
    battle_id = create_battle(client)

    accepted(client, battle_id, WALL)
    accepted(client, battle_id, WALL)  # the failed enqueue cleared the flag, so this one tries again

    assert head_version(client, battle_id) == 3
    assert battle_id in redis_store.take_pending(10)  # the reconciler finds it
