"""The previews a process remembers (service/commands/preview_memory.py): the same command previewed on the
same state again is answered from memory, byte for byte, and says so (`Cache-Status`, RFC 9211); another
state (a new version, or a reader whose view withdraws hidden orders) is decided afresh."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from eventstore import keys
from eventstore.redis_store import RedisEventStore
from service.commands.preview_memory import (
    BYPASS,
    ENTRY_COST,
    HIT,
    NOT_STORED,
    STORED,
    PreviewMemory,
    Seen,
)
from service.deps import EXTENSION, Services
from tests.fixtures.app import GmClient
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


def test_a_version_that_came_back_with_another_entry_is_another_state(
    client: GmClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    """A head lost in a failover (operations.md): the next append lands at the lost entry's version. The
    memory is keyed by the head entry's hash, which chains the log, so the version number fools nothing."""
    battle_id = ready_to_assault(client, redis_store)
    lost = accepted(client, battle_id, {"type": "advance_phase"})
    assert previewed(client, battle_id, ASSAULT).headers["Cache-Status"] == STORED
    log = keys.log(battle_id)
    kept: Any = redis_client.xrange(log)
    redis_client.delete(log)  # the stream written again without its last entry, as a replica holds it
    for entry_id, fields in kept[:-1]:
        redis_client.xadd(log, fields, id=entry_id)
    again = client.post(f"/battles/{battle_id}/commands", json={"type": "advance_phase"})
    if again.status_code == 503:  # the append that finds the head behind an acknowledged one is refused once
        again = client.post(f"/battles/{battle_id}/commands", json={"type": "advance_phase"})
    assert again.status_code == 202 and again.get_json()["version"] == lost, again.get_json()
    assert previewed(client, battle_id, ASSAULT).headers["Cache-Status"] == STORED


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
    client_with: Callable[..., GmClient], redis_store: RedisEventStore
) -> None:
    client = client_with(preview_cache_size=0)
    battle_id = ready_to_assault(client, redis_store)
    first, again = previewed(client, battle_id, ASSAULT), previewed(client, battle_id, ASSAULT)
    assert (first.headers["Cache-Status"], again.headers["Cache-Status"]) == (BYPASS, BYPASS)
    assert again.data == first.data and not memory_of(client.application)._answers


def test_an_answer_larger_than_the_whole_memory_is_sent_and_said_not_kept(
    client_with: Callable[..., GmClient], redis_store: RedisEventStore
) -> None:
    client = client_with(preview_cache_size=ENTRY_COST + 100)  # an assault's odds are some 3,000
    battle_id = ready_to_assault(client, redis_store)
    first, again = previewed(client, battle_id, ASSAULT), previewed(client, battle_id, ASSAULT)
    assert (first.headers["Cache-Status"], again.headers["Cache-Status"]) == (NOT_STORED, NOT_STORED)
    assert again.data == first.data and not memory_of(client.application)._answers


def test_the_memory_holds_about_its_size_in_bytes_dropping_the_oldest_first() -> None:
    def seen(n: int) -> Seen:
        return Seen(battle_id="b", head=f"h{n}", hidden_from=None, command="{}")

    memory = PreviewMemory(3 * (ENTRY_COST + 32) + 10)
    for n in range(3):
        assert memory.put(seen(n), "x" * 30)  # ENTRY_COST + 32 each, with the command's two characters
    assert [memory.get(seen(n)) for n in range(3)] == ["x" * 30] * 3
    assert memory.put(seen(3), "y" * 30)  # a fourth would not fit: the oldest goes
    assert memory.get(seen(0)) is None and memory.get(seen(3)) == "y" * 30
    assert not memory.put(seen(9), "z" * memory.size)  # past the size on its own: never kept
    assert memory.get(seen(9)) is None
    assert [memory.get(seen(n)) for n in (1, 2, 3)] == ["x" * 30, "x" * 30, "y" * 30]
