"""The previews a process remembers (service/commands/preview_memory.py): the same command previewed on the
same state again is answered from memory, byte for byte, and says so (`Cache-Status`, RFC 9211); another
state (a new version, or a reader whose view withdraws hidden orders) is decided afresh."""

from __future__ import annotations

from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from eventstore.redis_store import RedisEventStore
from service.app import create_app
from service.commands.preview_memory import BYPASS, HIT, STORED, PreviewMemory, Seen
from service.deps import EXTENSION, Services
from tests.fixtures.app import GmClient, config_for
from tests.service.helpers import accepted, fold
from tests.service.test_hidden_orders import STORM, Battle, before_the_storm
from tests.service.test_previews import ASSAULT, ready_to_assault


def previewed(client: FlaskClient, battle_id: str, command: dict[str, Any], **headers: str) -> TestResponse:
    answered = client.post(f"/battles/{battle_id}/previews", json=command, headers=headers)
    assert answered.status_code == 200, answered.get_json()
    return answered


def memory_of(app: Flask) -> PreviewMemory:
    services: Services = app.extensions[EXTENSION]
    return services.previews


def test_the_same_preview_of_the_same_state_is_answered_from_memory_with_the_same_bytes(
    app: Flask, client: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = ready_to_assault(client, redis_store)
    first = previewed(client, battle_id, ASSAULT)
    again = previewed(client, battle_id, ASSAULT)
    assert (first.headers["Cache-Status"], again.headers["Cache-Status"]) == (STORED, HIT)
    assert again.data == first.data
    # the remembered text is what a hit sends: planted, it is what the next request reads
    memory = memory_of(app)
    (seen,) = [s for s in list(memory._answers) if s.battle_id == battle_id]
    memory.put(seen, '{"planted": true}')
    assert previewed(client, battle_id, ASSAULT).get_json() == {"planted": True}
    # the same fields in another order are the same command; another field value is another command
    reordered = dict(reversed(list(ASSAULT.items())))
    assert previewed(client, battle_id, reordered).headers["Cache-Status"] == HIT
    assert previewed(client, battle_id, {**ASSAULT, "section_id": "W2"}).headers["Cache-Status"] == STORED


def test_a_new_version_is_another_state_decided_afresh(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = ready_to_assault(client, redis_store)
    before = previewed(client, battle_id, ASSAULT)
    accepted(client, battle_id, {"type": "advance_phase"})
    fold(redis_store, battle_id)
    after = previewed(client, battle_id, ASSAULT)
    assert (before.headers["Cache-Status"], after.headers["Cache-Status"]) == (STORED, STORED)


def test_a_side_whose_view_withdraws_hidden_orders_is_never_answered_the_gms_preview(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    battle: Battle = before_the_storm(client, redis_store, "first_fire", folded=False)
    gm, attacker = battle.headers["gm"], battle.headers["attacker"]
    gms = previewed(client, battle.id, STORM, **gm)
    sides = previewed(client, battle.id, STORM, **attacker)
    assert (gms.headers["Cache-Status"], sides.headers["Cache-Status"]) == (STORED, STORED)
    assert sides.data != gms.data  # the gate's hidden order changes the GM's odds, not the attacker's
    assert previewed(client, battle.id, STORM, **attacker).data == sides.data
    assert previewed(client, battle.id, STORM, **gm).data == gms.data
    # the reveal stored, at the same version: the attacker sees the whole state, as the GM does
    fold(redis_store, battle.id)
    revealed = previewed(client, battle.id, STORM, **attacker)
    assert (revealed.headers["Cache-Status"], revealed.data) == (HIT, gms.data)


def test_a_process_told_to_keep_none_decides_every_preview(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str
) -> None:
    app = create_app(config_for(redis_url, preview_cache_size=0), store=redis_store, queue_redis=redis_client)
    client = GmClient(app, app.response_class, use_cookies=False)
    battle_id = ready_to_assault(client, redis_store)
    first, again = previewed(client, battle_id, ASSAULT), previewed(client, battle_id, ASSAULT)
    assert (first.headers["Cache-Status"], again.headers["Cache-Status"]) == (BYPASS, BYPASS)
    assert again.data == first.data and not memory_of(app)._answers


def test_the_memory_holds_at_most_its_size_in_characters_dropping_the_oldest_first() -> None:
    memory = PreviewMemory(100)
    seen = [Seen(battle_id="b", version=v, hidden_from=None, command="{}") for v in range(4)]
    for n in range(3):
        memory.put(seen[n], "x" * 30)  # 32 characters each with the command's two
    assert [memory.get(s) for s in seen[:3]] == ["x" * 30] * 3
    memory.put(seen[3], "y" * 30)  # a fourth would hold 128: the oldest goes
    assert memory.get(seen[0]) is None and memory.get(seen[3]) == "y" * 30
    alone = Seen(battle_id="b", version=9, hidden_from=None, command="{}")
    memory.put(alone, "z" * 99)  # past the size on its own: never kept
    assert memory.get(alone) is None
    assert [memory.get(s) for s in seen[1:]] == ["x" * 30, "x" * 30, "y" * 30]
