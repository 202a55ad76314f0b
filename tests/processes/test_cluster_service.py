"""The whole service on a three-master Redis Cluster (SIEGE_STORE_CLUSTER=1): real gunicorn, RQ worker and
reconciler processes, the queue and the rate-limit counters on a plain Redis beside it. docs/api.md's
worked session is played, then verified by a replay job and audited."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from eventstore import keys
from eventstore.redis_store import RedisEventStore
from tests.fixtures.cluster import local_cluster
from tests.fixtures.processes import LIVE_DB_OFFSET, LiveService, launched, with_db_offset
from tests.processes.client import call, eventually, send
from tests.processes.streams import LiveStream
from tests.processes.test_replay_endpoint import replayed

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]
QUEUE_DB = LIVE_DB_OFFSET + 1  # the cluster stack's queue: a database of its own on the plain test server
SETTLED_S = 60
SPREAD_TRIES = 40  # battles created at most to find a second master: all on one, 3 * (1/3)^40

EAST_WALL: list[dict[str, Any]] = [  # docs/api.md, "A worked session" (seed 001, EX-EP-01)
    {"type": "add_fortification", "id": "E1", "kind": "wall"},
    {"type": "add_stand", "id": "goff", "stand_type": "infantry", "side": "defender", "caf": 2,
     "speed_cm": 10, "location": {"kind": "on", "section_id": "E1"}},
    {"type": "add_stand", "id": "csm", "stand_type": "infantry", "side": "attacker", "caf": 3,
     "speed_cm": 10, "location": {"kind": "at_foot", "section_id": "E1"}},
    {"type": "give_order", "stand_id": "csm", "order": "charge"},
    {"type": "advance_phase"},
    {"type": "climb", "stand_id": "csm", "section_id": "E1"},
    {"type": "advance_phase"},
    {"type": "advance_phase"},
]  # fmt: skip
ASSAULT = {"type": "assault", "stand_id": "csm", "section_id": "E1",
           "dice": {"attacker": [6, 6], "defender": [1, 2]}}  # fmt: skip


@pytest.fixture(scope="module")
def cluster_service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveService]:
    """A cluster of its own (the contract suite's is flushed between tests) and the stack on it."""
    queue_url = with_db_offset(redis_url, QUEUE_DB)
    with contextlib.ExitStack() as running:
        nodes = running.enter_context(local_cluster(tmp_path_factory.mktemp("e2e-cluster")))
        logs = tmp_path_factory.mktemp("cluster-live")
        # masters without replicas (the failover fault test has them): nothing to wait for, said so
        settings = {"SIEGE_ACK_REPLICAS": "0"}
        yield running.enter_context(launched(nodes[0].url, queue_url, logs, cluster=True, settings=settings))


def test_the_worked_session_plays_replays_and_audits_on_a_cluster(cluster_service: LiveService) -> None:
    live = cluster_service
    battle_id, gm = _created(live)
    for command in EAST_WALL:
        reply = send(live, battle_id, gm, command, wait_s=5)
        assert reply.status == 200 and reply.body["status"] == "applied", (command, reply.body)

    fought = send(live, battle_id, gm, ASSAULT, wait_s=5)

    assert fought.status == 200, fought.body
    assert fought.body["version"] == 10 and fought.body["status"] == "applied"
    assert fought.body["result"]["result"] == "attacker_wins"
    assert fought.body["result"]["destroyed_stands"] == ["goff"]
    bearer = {"Authorization": f"Bearer {gm}"}
    state = call("GET", f"{live.base_url}/battles/{battle_id}/state", headers=bearer)
    assert state.status == 200 and state.body["version"] == 10
    verified = replayed(live, battle_id, bearer, "verify")
    assert verified["result"]["ok"] is True, verified
    audit = call("GET", f"{live.base_url}/battles/{battle_id}/audit", headers=bearer)
    assert audit.status == 200 and audit.body["ok"] is True, audit.body
    assert audit.body["chain"]["checked"] == 10 and audit.body["replay"]["compared"] == 10


def test_battles_on_every_master_are_folded_and_the_queue_and_pending_marks_stay_off_the_cluster(
    cluster_service: LiveService,
) -> None:
    live = cluster_service
    store = live.store()
    created = _spread(live, store, 9)
    for battle_id, gm in created:
        assert send(live, battle_id, gm, {"type": "advance_phase"}).status == 202

    eventually(
        lambda: all(store.projected_version(b) == 2 for b, _ in created), SETTLED_S, "every battle folded"
    )
    assert len(_owners(store, created)) > 1
    assert store.client.keys("rq:*") == []  # RQ keeps its keys on the queue Redis
    # and so do the cross-battle pending marks (SADD, SPOP): no master's trouble holds up another's battles
    for master in store.client.get_primaries():  # type: ignore[union-attr]
        calls = store.client.get_redis_connection(master).info("commandstats")  # type: ignore[union-attr]
        assert "cmdstat_spop" not in calls and "cmdstat_sadd" not in calls, master.name


def _spread(live: LiveService, store: RedisEventStore, count: int) -> list[tuple[str, str]]:
    """`count` new battles whose logs sit on more than one master: battle ids are random, and six of them
    once all fell on one of the three masters (1 run in some 250), leaving the test nothing to show."""
    created = [_created(live) for _ in range(count)]
    for _ in range(SPREAD_TRIES):
        if len(_owners(store, created)) > 1:
            break
        created[-1] = _created(live)  # another battle in the last one's place, likely on another master
    return created


def _owners(store: RedisEventStore, battles: list[tuple[str, str]]) -> set[str]:
    """The masters holding these battles' logs."""
    return {store.client.get_node_from_key(keys.log(b)).name for b, _ in battles}  # type: ignore[union-attr]


def _created(live: LiveService) -> tuple[str, str]:
    reply = call("POST", f"{live.base_url}/battles", {"ruleset": "epic", "name": "East wall"}, _bearer(live))
    assert reply.status == 201, (reply.body, live.log_tail())
    body: dict[str, Any] = reply.body
    return str(body["id"]), str(body["gm_token"])


def _bearer(live: LiveService) -> dict[str, str]:
    return {"Authorization": f"Bearer {live.api_key}"}


def test_streams_follow_battles_on_every_master(cluster_service: LiveService) -> None:
    """One reader per API process follows every watched battle, though a cluster refuses multi-slot XREAD."""
    live = cluster_service
    store = live.store()
    created = _spread(live, store, 6)
    streams = [
        LiveStream(live.base_url, f"/battles/{b}/stream?after=0", {"Authorization": f"Bearer {gm}"})
        for b, gm in created
    ]
    try:
        for held in streams:
            assert held.status == 200
        sent = [send(live, b, gm, {"type": "advance_phase"}, wait_s=5) for b, gm in created]

        for held, reply in zip(streams, sent, strict=True):
            assert reply.status == 200, reply.body
            events = held.events.outcomes(2)
            assert [e.id for e in events] == ["1", "2"] and events[1].json() == reply.body
    finally:
        for held in streams:
            held.close()
    assert len(_owners(store, created)) > 1
