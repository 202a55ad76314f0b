"""What only the Redis backend has to show: its key layout, its round trips, and its head cache."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from redis.cluster import ClusterNode, RedisCluster

from eventstore import keys
from eventstore.chain import verify_chain
from eventstore.config import RedisClient, connect
from eventstore.records import Budget, Projection, StoredEntry, TokenRecord, Window
from eventstore.redis_in_flight import InFlight
from eventstore.redis_store import RedisEventStore
from tests.eventstore.contract.builders import outcomes, state
from tests.eventstore.helpers import SEED, appending, battle, command, created


class CountingRedis(redis.Redis):  # type: ignore[type-arg]
    """A real client that remembers the name of every command it sends."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent: list[str] = []

    def execute_command(self, *args: Any, **options: Any) -> Any:
        self.sent.append(str(args[0]).upper())
        return super().execute_command(*args, **options)


@pytest.fixture
def counting(redis_url: str, redis_client: redis.Redis[Any]) -> Iterator[CountingRedis]:
    """On the database `redis_client` just emptied."""
    client = CountingRedis(connection_pool=redis.ConnectionPool.from_url(redis_url))
    yield client
    client.close()


def test_the_log_is_a_stream_with_one_entry_id_per_version(redis_store: RedisEventStore) -> None:
    battle(redis_store, commands=2)
    rows = redis_store.client.xrange(keys.log("b1"))
    assert [row[0] for row in rows] == [b"0-1", b"0-2", b"0-3"]
    fields = rows[1][1]
    assert list(fields) == [
        b"type", b"data", b"schema_version", b"actor", b"idempotency_key",
        b"recorded_at", b"dice", b"prev_hash", b"hash",
    ]  # fmt: skip
    assert json.loads(fields[b"data"]) == {"n": 0} and fields[b"idempotency_key"] == b""
    assert redis_store.client.zrange(keys.BATTLES, 0, -1) == [b"b1"]


def test_an_entry_read_back_is_the_frozen_record_its_init_would_build(redis_store: RedisEventStore) -> None:
    # stream_fields builds entries through their slots, not __init__: equal, alike and frozen still
    battle(redis_store, commands=1)
    read = redis_store.entry("b1", 2)
    assert read is not None
    built = StoredEntry(**{f.name: getattr(read, f.name) for f in dataclasses.fields(StoredEntry)})
    assert read == built and repr(read) == repr(built)
    assert read.version == 2 and read.type == "fire" and read.dice == {"attack": [17], "damage": [3, 5]}
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.version = 3  # type: ignore[misc]  # the point: it refuses


def test_a_warm_append_that_schedules_is_one_round_trip(counting: CountingRedis) -> None:
    store = RedisEventStore(counting)
    battle(store)
    # warm: the script is loaded and the head known, whatever ran before
    store.append(appending("b1", command()))
    counting.sent.clear()
    assert store.append(appending("b1", command(), mark_pending=True)).enqueue
    assert counting.sent == ["EVALSHA"]


def test_appenders_with_their_own_stale_heads_interleave_without_gaps(redis_store: RedisEventStore) -> None:
    other = RedisEventStore(redis_store.client)
    battle(redis_store)
    for n in range(6):
        (redis_store if n % 2 else other).append(appending("b1", command(n=n)))
    assert [e.version for e in redis_store.iter_entries("b1")] == list(range(1, 8))
    assert verify_chain(redis_store.iter_entries("b1")).ok


def test_a_recreated_battle_is_not_confused_with_its_cached_head(redis_store: RedisEventStore) -> None:
    battle(redis_store, commands=5)
    redis_store.client.flushdb()
    battle(redis_store)
    assert redis_store.append(appending("b1", command())).version == 2


def test_a_keyed_budgeted_append_is_still_one_round_trip(counting: CountingRedis) -> None:
    store = RedisEventStore(counting)
    battle(store)
    budget = Budget(owner="token:t1", windows=(Window(amount=100, seconds=60),))
    # warm: the script is loaded and the head known, whatever ran before
    store.append(appending("b1", command()))
    counting.sent.clear()

    appended = store.append(
        appending("b1", command(key="k"), fingerprint="f", mark_pending=True, budget=budget)
    )

    assert appended.spent is not None and appended.spent.left == 99
    assert counting.sent == ["EVALSHA"]  # count, key record, entry, pending mark: one script


def test_two_processes_hammering_one_battle_never_give_up(redis_url: str, redis_client: Any) -> None:
    """Two stores, as two API processes: their own head caches and turns, eight threads each."""
    stores = [RedisEventStore(connect(redis_url, max_connections=16)) for _ in range(2)]
    battle(stores[0])
    failures: list[BaseException] = []

    def hammer(store: RedisEventStore) -> None:
        try:
            for _ in range(40):
                store.append(appending("b1", command()))
        except BaseException as error:  # every failure is the finding
            failures.append(error)

    threads = [threading.Thread(target=hammer, args=(stores[n % 2],)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert failures == []
    assert stores[1].head("b1").version == 1 + 16 * 40
    assert verify_chain(stores[1].iter_entries("b1")).ok


def test_iter_entries_reads_one_batch_per_xrange(counting: CountingRedis) -> None:
    store = RedisEventStore(counting)
    battle(store, commands=24)
    counting.sent.clear()
    assert len(list(store.iter_entries("b1", batch=10))) == 25
    assert counting.sent == ["XRANGE", "XRANGE", "XRANGE"]


def test_reading_ahead_asks_for_the_next_page_before_handing_out_this_one(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    if os.environ.get("REDIS_URL"):
        pytest.skip("counts the server's XRANGE calls: only this test process's own server counts only ours")
    battle(redis_store, commands=19)

    def xranges() -> int:
        return int(redis_client.info("commandstats").get("cmdstat_xrange", {}).get("calls", 0))

    start = xranges()
    plain = redis_store.iter_entries("b1", batch=5)
    assert next(plain).version == 1 and xranges() - start == 1
    assert [e.version for e in plain] == list(range(2, 21))
    pages = xranges() - start  # four full pages, and the empty one that says the log ends
    start = xranges()
    ahead = redis_store.iter_entries("b1", batch=5, read_ahead=True)
    assert next(ahead).version == 1 and xranges() - start == 2  # this page, and the next already asked for
    assert [e.version for e in ahead] == list(range(2, 21))
    assert xranges() - start == pages == 5


def test_a_command_sent_ahead_whose_reply_is_lost_is_answered_the_ordinary_way(
    redis_url: str, redis_client: redis.Redis[Any]
) -> None:
    impatient = connect(redis_url, socket_timeout=0.2)
    # BLPOP on an empty list holds its reply past the client's timeout: the reply is lost to it
    sent = InFlight(impatient, ("BLPOP", "nothing", 5), lambda reply: f"read {reply}", lambda: "again")
    assert sent.answer() == "again"
    for n in range(3):  # its connection was not given back with the BLPOP still waiting on it
        assert impatient.echo(f"after {n}") == f"after {n}".encode()


def test_a_command_sent_ahead_and_dropped_never_answers_a_later_one(redis_client: redis.Redis[Any]) -> None:
    # BLPOP holds its reply for a second: a connection given back with it pending would answer the next
    # command on it with the BLPOP's empty reply
    in_flight = InFlight(redis_client, ("BLPOP", "nothing", 1), lambda reply: reply, lambda: None)
    in_flight.drop()
    for n in range(3):
        assert redis_client.echo(f"ping {n}") == f"ping {n}".encode()
    with pytest.raises(RuntimeError, match="answered or dropped already"):
        in_flight.answer()


def test_a_command_in_flight_is_answered_once(redis_client: redis.Redis[Any]) -> None:
    in_flight = InFlight(redis_client, ("ECHO", "once"), lambda reply: reply, lambda: b"fallback")
    assert in_flight.answer() == b"once"
    with pytest.raises(RuntimeError, match="answered or dropped already"):
        in_flight.answer()


def test_a_projection_sent_after_the_server_forgot_its_script_loads_it_again(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle(redis_store, commands=4)
    redis_client.script_flush()
    assert redis_store.send_projection("b1", state=state(3), outcomes=outcomes(1, 3)).answer()
    assert redis_store.projection("b1") == state(3) and redis_store.outcomes("b1") == outcomes(1, 3)


def test_a_projection_is_refused_before_writing_if_outcomes_already_ran_ahead(
    redis_store: RedisEventStore,
) -> None:
    battle(redis_store, commands=5)
    redis_store.client.xadd(keys.outcomes("b1"), {"outcome": "{}"}, id="0-4")
    state = Projection(version=3, state="{}")
    assert not redis_store.save_projection("b1", state=state, outcomes=[(1, "{}"), (2, "{}"), (3, "{}")])
    assert redis_store.projection("b1") is None and redis_store.outcome("b1", 1) is None


def test_on_a_cluster_an_append_marks_pending_with_a_second_call(cluster_client: RedisClient) -> None:
    store = RedisEventStore(cluster_client)  # the pending keys span battles, so they live on another slot
    battle(store)
    assert store.append(appending("b1", command(), mark_pending=True)).enqueue
    assert not store.append(appending("b1", command(), mark_pending=True)).enqueue
    assert store.take_pending(5) == ["b1"]


def owner(client: RedisCluster[Any], key: str) -> ClusterNode:
    node = client.get_node_from_key(key)
    assert node is not None, key  # the client has read the slot map, and a live cluster serves every slot
    return node


def test_the_cluster_has_three_masters_and_battles_spread_over_them(
    cluster_client: RedisCluster[Any],
) -> None:
    store = RedisEventStore(cluster_client)
    for n in range(12):
        battle(store, f"b{n}", commands=1)
    owners = {owner(cluster_client, keys.log(f"b{n}")).name for n in range(12)}
    assert len(cluster_client.get_primaries()) == 3
    assert len(owners) > 1  # so a contract test that spans battles spans nodes too
    assert sorted(store.battle_ids()) == sorted(f"b{n}" for n in range(12))


def test_every_key_of_a_battle_shares_one_slot(cluster_client: RedisCluster[Any]) -> None:
    battle_keys = [
        keys.log("b1"), keys.outcomes("b1"), keys.state("b1"), keys.snapshots("b1"),
        keys.snapshot_versions("b1"), keys.secret("b1"), keys.idem("b1"), keys.idem_expiry("b1"),
        keys.tokens("b1"), keys.lock("b1"),
    ]  # fmt: skip
    assert len({cluster_client.keyslot(key) for key in battle_keys}) == 1


def test_the_cluster_refuses_a_script_whose_keys_span_slots(cluster_client: RedisClient) -> None:
    """What the fixture is for: a script mixing two battles' keys fails here, not first in production."""
    assert isinstance(cluster_client, RedisCluster)
    node = owner(cluster_client, keys.log("b1"))
    direct = redis.Redis(host=node.host, port=node.port)
    spans = "return redis.call('EXISTS', KEYS[1], KEYS[2])"
    try:
        with pytest.raises(redis.ResponseError, match="same slot"):  # CROSSSLOT
            direct.eval(spans, 2, keys.log("b1"), keys.PENDING)  # type: ignore[no-untyped-call]  # types-redis leaves eval unannotated
    finally:
        direct.close()


def test_expired_idempotency_records_are_pruned_by_later_keyed_appends(redis_store: RedisEventStore) -> None:
    battle(redis_store)
    redis_store.append(appending("b1", command(key="old"), fingerprint="f", retain_s=0.01))
    time.sleep(0.05)  # past the retention; only what the store keeps afterwards is asserted
    redis_store.append(appending("b1", command(key="new"), fingerprint="f", retain_s=60))
    assert redis_store.client.hkeys(keys.idem("b1")) == [b"new"]
    assert redis_store.client.zrange(keys.idem_expiry("b1"), 0, -1) == [b"new"]


def test_tokens_are_a_hash_of_sha256_digests_to_json_records(redis_store: RedisEventStore) -> None:
    digest = hashlib.sha256(b"the token").hexdigest()
    record = TokenRecord(digest=digest, id="tok-1", role="side", scope="defender", created_at="2026-03-01Z")
    redis_store.create_battle("b1", created(), SEED, token=record)
    stored = redis_store.client.hgetall(keys.tokens("b1"))
    assert list(stored) == [digest.encode()]
    assert json.loads(stored[digest.encode()]) == {
        "id": "tok-1",
        "role": "side",
        "scope": "defender",
        "expires_at": None,
        "revoked": False,
        "created_at": "2026-03-01Z",
    }
