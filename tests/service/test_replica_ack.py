"""What a 202 promises with replicas (issue 20): the append waits for them (WAIT on the battle's master),
a replica that does not confirm in time makes it a 503 that a keyed retry answers without appending
twice; a head found behind an acknowledged one is refused, counted and audited; every refusal a
server means as "not now" (NOREPLICAS, READONLY) is a 503, never a 500. Real servers throughout: a
master and a replica of this test's own, replicating over loopback."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from prometheus_client import REGISTRY

from eventstore import keys
from eventstore.config import connect
from eventstore.embedded import EmbeddedServer, free_port
from eventstore.errors import ReplicasBehind
from eventstore.redis_store import RedisEventStore
from eventstore.replication import ReplicaAck
from service.app import create_app
from tests.eventstore.helpers import appending, battle, command
from tests.fixtures.app import GmClient, config_for
from tests.service.helpers import CSM, WALL, assert_problem

LINKED_WITHIN_S = 30


@pytest.fixture
def replica(own_server: EmbeddedServer, tmp_path: Path) -> Iterator[EmbeddedServer]:
    """A replica of `own_server`, its link up and in sync before the test begins."""
    server = EmbeddedServer(tmp_path / "replica", port=free_port(), durability="durable").start()
    try:
        follow(server, own_server)
        yield server
    finally:
        server.stop()


def follow(replica: EmbeddedServer, master: EmbeddedServer) -> None:
    for server in (master, replica):  # no 5 s wait before a sync, none for lagging replicas at shutdown
        redis.Redis(port=server.port).config_set("repl-diskless-sync-delay", 0)
        redis.Redis(port=server.port).config_set("shutdown-timeout", 0)
    client = redis.Redis(port=replica.port, decode_responses=True)
    client.replicaof("127.0.0.1", master.port)
    deadline = time.monotonic() + LINKED_WITHIN_S
    while client.info("replication").get("master_link_status") != "up":
        assert time.monotonic() < deadline, "the replica never linked to its master"
        time.sleep(0.05)
    client.close()
    caught_up(master, deadline)


def caught_up(master: EmbeddedServer, deadline: float) -> None:
    """Until the master has seen its replica acknowledge everything it wrote (a busy machine is slow to)."""
    client = redis.Redis(port=master.port)
    while True:
        info: Any = client.info("replication")
        replica = info.get("slave0") or {}
        if isinstance(replica, dict) and int(replica.get("offset", -1)) >= int(info["master_repl_offset"]):
            break
        assert time.monotonic() < deadline, "the replica never caught up with its master"
        time.sleep(0.05)
    client.close()


def cut(replica: EmbeddedServer) -> None:
    """The replica stops replicating (and keeps what it has): writes from here on are on the master only."""
    redis.Redis(port=replica.port).replicaof("NO", "ONE")


def acked_client(master: EmbeddedServer, replicas: int | None = 1, timeout_ms: int = 1000) -> GmClient:
    url = master.url
    ack = ReplicaAck(replicas=replicas, timeout_ms=timeout_ms)
    store = RedisEventStore(connect(url, socket_timeout=5), ack=ack)
    app = create_app(config_for(url), store=store, queue_redis=connect(url))
    return GmClient(app, app.response_class, use_cookies=False)


def counter(name: str) -> float:
    return REGISTRY.get_sample_value(name) or 0.0


def entries_on(server: EmbeddedServer, battle_id: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
    rows: Any = redis.Redis(port=server.port).xrange(keys.log(battle_id))
    return list(rows)


def lose_head(server: EmbeddedServer, battle_id: str) -> None:
    """The log as a replica that never received its last entry holds it: the stream written again without
    it (an XDEL would leave the stream's last id at the lost version, which no replica would have)."""
    client = redis.Redis(port=server.port)
    kept = entries_on(server, battle_id)[:-1]
    client.delete(keys.log(battle_id))
    for entry_id, fields in kept:
        client.xadd(keys.log(battle_id), fields, id=entry_id)


def test_a_202_means_the_replica_holds_the_entry(own_server: EmbeddedServer, replica: EmbeddedServer) -> None:
    client = acked_client(own_server)
    battle_id = client.post("/battles", json={"ruleset": "epic"}).get_json()["id"]

    accepted = client.post(f"/battles/{battle_id}/commands", json=WALL)

    assert accepted.status_code == 202, accepted.get_json()
    # read at once from the replica itself: the wait happened before the answer, not after
    on_replica = entries_on(replica, battle_id)
    assert [row[0] for row in on_replica] == [b"0-1", b"0-2"]
    assert on_replica[-1][1][b"hash"].decode() == accepted.get_json()["hash"]


def test_a_replica_that_does_not_confirm_makes_a_503_and_the_keyed_retry_appends_once(
    own_server: EmbeddedServer, replica: EmbeddedServer
) -> None:
    client = acked_client(own_server)
    battle_id = client.post("/battles", json={"ruleset": "epic"}).get_json()["id"]
    timeouts = counter("siege_replica_ack_timeouts_total")
    cut(replica)

    refused = client.post(f"/battles/{battle_id}/commands", json=WALL, headers={"Idempotency-Key": "w1"})

    problem = assert_problem(refused, 503, "store-unavailable")
    assert refused.headers["Retry-After"] == "2" and "Idempotency-Key" in problem["detail"]
    assert counter("siege_replica_ack_timeouts_total") == timeouts + 1
    assert len(entries_on(own_server, battle_id)) == 2  # on the master, not acknowledged
    assert len(entries_on(replica, battle_id)) == 1

    follow(replica, own_server)
    retried = client.post(f"/battles/{battle_id}/commands", json=WALL, headers={"Idempotency-Key": "w1"})

    assert retried.status_code == 202, retried.get_json()
    assert retried.get_json()["version"] == 2  # the first attempt's entry, replayed: not appended again
    assert len(entries_on(own_server, battle_id)) == len(entries_on(replica, battle_id)) == 2


def test_the_store_alone_refuses_the_acknowledgement_and_replays_it_once_the_replica_has_it(
    own_server: EmbeddedServer, replica: EmbeddedServer
) -> None:
    store = RedisEventStore(connect(own_server.url), ack=ReplicaAck(replicas=1, timeout_ms=1000))
    battle(store, "b")
    cut(replica)
    entry = command(key="k")

    with pytest.raises(ReplicasBehind) as behind:
        store.append(appending("b", entry, fingerprint="f"))

    assert (behind.value.confirmed, behind.value.wanted) == (0, 1)
    follow(replica, own_server)
    replayed = store.append(appending("b", entry, fingerprint="f"))
    assert replayed.replayed and replayed.version == 2


def test_auto_waits_for_the_replicas_the_node_has(
    own_server: EmbeddedServer, replica: EmbeddedServer
) -> None:
    store = RedisEventStore(connect(own_server.url), ack=ReplicaAck(replicas=None, timeout_ms=1000))
    battle(store, "b")  # creating writes nothing that waits: auto is read at the first append
    assert store.append(appending("b", command())).version == 2
    cut(replica)

    with pytest.raises(ReplicasBehind):  # auto read one replica when it was linked: it is wanted now
        store.append(appending("b", command()))


def test_an_append_that_finds_an_acknowledged_head_lost_is_refused_counted_and_audited(
    own_server: EmbeddedServer,
) -> None:
    client = acked_client(own_server, replicas=0)
    battle_id = client.post("/battles", json={"ruleset": "epic"}).get_json()["id"]
    kept = client.post(f"/battles/{battle_id}/commands", json=WALL).get_json()
    lost = client.post(f"/battles/{battle_id}/commands", json=CSM).get_json()
    regressions = counter("siege_head_regressions_total")
    # what a failover to a replica without it, or a crash before an fsync, leaves: the head is gone
    lose_head(own_server, battle_id)

    refused = client.post(f"/battles/{battle_id}/commands", json=CSM)

    assert_problem(refused, 503, "store-unavailable")
    assert counter("siege_head_regressions_total") == regressions + 1
    audit = client.get(f"/battles/{battle_id}/audit").get_json()
    assert audit["ok"] is False and audit["status"] == "regressed"
    assert audit["regressions"] == [
        {
            "acknowledged_version": lost["version"],
            "acknowledged_hash": lost["hash"],
            "found_version": kept["version"],
            "found_hash": kept["hash"],
            "at": audit["regressions"][0]["at"],
        }
    ]
    # the way a client holding {version, hash} checks its acknowledgement: one read of that version
    assert client.get(f"/battles/{battle_id}/events/{lost['version']}").status_code == 404
    assert client.get(f"/battles/{battle_id}/events/{kept['version']}").get_json()["hash"] == kept["hash"]
    again = client.post(f"/battles/{battle_id}/commands", json=CSM)
    assert again.status_code == 202, again.get_json()
    assert again.get_json()["version"] == lost["version"]  # told, then on


def test_noreplicas_is_a_503_and_nothing_is_appended(own_server: EmbeddedServer) -> None:
    client = acked_client(own_server, replicas=0)
    battle_id = client.post("/battles", json={"ruleset": "epic"}).get_json()["id"]
    redis.Redis(port=own_server.port).config_set("min-replicas-to-write", 1)

    refused = client.post(f"/battles/{battle_id}/commands", json=WALL)

    problem = assert_problem(refused, 503, "store-unavailable")
    assert "NOREPLICAS" in problem["detail"] or "ResponseError" in problem["detail"]
    redis.Redis(port=own_server.port).config_set("min-replicas-to-write", 0)
    assert len(entries_on(own_server, battle_id)) == 1


def test_a_master_turned_replica_answers_503_not_500(own_server: EmbeddedServer, tmp_path: Path) -> None:
    client = acked_client(own_server, replicas=0)
    battle_id = client.post("/battles", json={"ruleset": "epic"}).get_json()["id"]
    with EmbeddedServer(tmp_path / "new-master", port=free_port()) as promoted:
        follow(promoted, own_server)
        cut(
            promoted
        )  # promoted, with the battle; the old master then follows it, read-only, as after a failover
        follow(own_server, promoted)

        refused = client.post(f"/battles/{battle_id}/commands", json=WALL)

        assert_problem(refused, 503, "store-unavailable")


def test_a_replay_is_acknowledged_only_once_the_replicas_hold_the_first_attempt_s_entry(
    own_server: EmbeddedServer, replica: EmbeddedServer
) -> None:
    """A replay writes nothing new, yet WAIT counts a connection's own writes: the replay's script writes
    its record again, so the wait covers the first attempt's entry even on a connection that wrote nothing."""
    first = RedisEventStore(connect(own_server.url), ack=ReplicaAck(replicas=1, timeout_ms=1000))
    battle(first, "b")
    pid = redis.Redis(port=replica.port).info()["process_id"]
    os.kill(pid, signal.SIGSTOP)  # linked still, but it takes and acknowledges nothing
    try:
        with pytest.raises(ReplicasBehind):
            first.append(appending("b", command(key="k"), fingerprint="f"))
        fresh = RedisEventStore(connect(own_server.url), ack=ReplicaAck(replicas=1, timeout_ms=1000))
        fresh.head("b")  # a read: its first append hashes on the right head and writes no claim

        with pytest.raises(ReplicasBehind):  # a connection of its own, which never wrote: still no
            fresh.append(appending("b", command(key="k"), fingerprint="f"))
    finally:
        os.kill(pid, signal.SIGCONT)
    caught_up(own_server, time.monotonic() + LINKED_WITHIN_S)
    assert fresh.append(appending("b", command(key="k"), fingerprint="f")).replayed
