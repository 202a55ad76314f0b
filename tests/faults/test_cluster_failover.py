"""The service on a Redis Cluster of three masters with a replica each (AOF `always`), keyed writers on
battles of every master, and three master SIGKILLs: one under load, two after the master's replica link
was cut for seconds of writes (during the last cut, a keyed command is resent at once from several
connections). A replica is promoted each time and the killed node rejoins as its
replica. Every acknowledged command must still be in its log at its version with its hash, no version
may be handed out twice, no answer may be a 500, and battles on the other masters keep being
acknowledged at their pace while a failed master's slots change hands."""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest
from redis.cluster import RedisCluster
from redis.crc import key_slot

from eventstore import keys
from eventstore.embedded import EmbeddedServer
from eventstore.redis_store import RedisEventStore
from tests.faults.traffic import (
    Losses,
    Receipt,
    Tally,
    Writers,
    bearer,
    check_clean,
    create_battles,
    losses,
    request,
)
from tests.fixtures.cluster import Node, ReplicatedCluster, replicated_cluster, slot_ranges
from tests.fixtures.launched import Launched, launched
from tests.workers.logs import FILLER

pytestmark = [pytest.mark.faults]
NODE_TIMEOUT_MS = 2000
BATTLES_PER_MASTER = 2  # each with a writer of its own
LOAD_BEFORE_S = 1.5  # writes that reach the replica before anything breaks
LOAD_AFTER_S = 1.0  # writes on the promoted master before the killed node comes back
KEPT_PACE = 0.5  # the healthy masters' battles are acknowledged at least at half their pace during a failover
RESENDS = 4  # of the probe's command at once, on connections of their own: they reach both API processes
# (scenario, seconds of writes the master takes alone while its replica's link is cut before it dies, and
# whether a probe runs meanwhile): the last cut outlasts an acknowledgement's timeout (1 s) twice, so a
# command refused for want of a replica is resent, and meets its own idempotency record, while the link is
# still down: a resend must not be acknowledged then either
SCENARIOS = (
    ("master SIGKILLed", 0.0, False),
    ("replica link cut 1 s, then master SIGKILLed", 1.0, False),
    ("replica link cut 3 s, a refused command resent meanwhile, then master SIGKILLed", 3.0, True),
)


@dataclass(frozen=True)
class Round:
    scenario: str
    shard: int  # which third of the slots the victim served
    started: float
    killed: float
    promoted: float  # a replica serves the victim's slots
    ended: float  # the killed node rejoined as a synced replica
    behind: int  # replication bytes the replica lacked when its master died (0: the link was up)
    probed: Counter[int] = field(default_factory=Counter)  # the probe's answers, first attempt and resends


@dataclass(frozen=True)
class Failovers:
    rounds: list[Round]
    tally: Tally
    losses: Losses
    shards: dict[str, int]  # battle → the third of the slots it lives in
    elapsed_s: float  # from the first node's start to the writers' end
    run: Launched
    store: RedisEventStore
    battles: list[tuple[str, str]]


def shard_of(battle_id: str) -> int:
    """Which third of the slots the battle's keys are in (a shard keeps its slots across failovers)."""
    return shard_of_key(keys.log(battle_id))


def spread(run: Launched, per_shard: int) -> list[tuple[str, str]]:
    """Battles until every master has `per_shard` of them (ids are random, so a few more than needed)."""
    battles: list[tuple[str, str]] = []
    while min(sum(shard_of(b) == n for b, _ in battles) for n in range(3)) < per_shard:
        battles += create_battles(run.base_url, run.api_key, 3)
        assert len(battles) < 60, "battle ids do not spread over the slots"
    return battles


@pytest.fixture(scope="module")
def failovers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Failovers]:
    began = time.monotonic()
    with contextlib.ExitStack() as stack:
        cluster = stack.enter_context(
            replicated_cluster(tmp_path_factory.mktemp("cluster"), node_timeout_ms=NODE_TIMEOUT_MS)
        )
        queue = stack.enter_context(EmbeddedServer(tmp_path_factory.mktemp("queue")))
        # the node the service is pointed at is one that is never killed (a replica of the first master)
        entry = cluster.replicas_of(cluster.masters()[0])[0]
        env = {
            "REDIS_URL": entry.url,
            "SIEGE_STORE_CLUSTER": "1",
            "QUEUE_REDIS_URL": queue.url,
            "SIEGE_DURABILITY": "durable",
        }
        run = stack.enter_context(launched(tmp_path_factory.mktemp("service"), env, embedded=False))
        client: RedisCluster[bytes] = RedisCluster(startup_nodes=cluster.startup_nodes())
        stack.callback(client.close)
        store = RedisEventStore(client)
        battles = spread(run, BATTLES_PER_MASTER)
        rounds = []
        with Writers(run.base_url, battles, threads=len(battles), idempotent=True, pinned=True) as writers:
            for shard, (scenario, cut_s, probe) in enumerate(SCENARIOS):
                target = next(b for b in battles if shard_of(b[0]) == shard)
                probing = (lambda t=target: resent(run.base_url, t, writers.tally)) if probe else None
                rounds.append(fail_over(cluster, shard, scenario, cut_s, probing))
            tally = writers.stop()
        ids = [b for b, _ in battles]
        found = losses(tally.receipts, store, ids)
        shards = {b: shard_of(b) for b in ids}
        elapsed = time.monotonic() - began
        print_table(rounds, tally, found, shards)
        yield Failovers(rounds, tally, found, shards, elapsed, run, store, battles)


def fail_over(
    cluster: ReplicatedCluster,
    shard: int,
    scenario: str,
    cut_s: float,
    probe: Callable[[], Counter[int]] | None = None,
) -> Round:
    """SIGKILL the master of `shard` (its replica's link cut for `cut_s` of writes first, `probe` run
    meanwhile), wait for the promotion, restart the killed node and wait until every master has a synced
    replica again."""
    started = time.monotonic()
    first_slot = slot_ranges()[shard][0]
    victim = cluster.master_of(first_slot)
    assert victim is not None, cluster.describe()
    replica = cluster.replicas_of(victim)[0]
    time.sleep(LOAD_BEFORE_S)
    behind, probed = 0, Counter[int]()
    if cut_s:
        behind, probed = cut_for(cluster, victim, replica, cut_s, probe)
    slots = cluster.slots_of(victim)
    victim.kill()
    killed = time.monotonic()
    promoted_node = cluster.wait_failover(victim, slots)
    promoted = time.monotonic()
    assert promoted_node is replica, f"{promoted_node.port} took over, not the replica {replica.port}"
    time.sleep(LOAD_AFTER_S)
    victim.start()  # same port and dir: it rejoins as the promoted node's replica and resyncs from it
    cluster.wait_healthy()
    assert cluster.replicas_of(replica) == [victim], cluster.describe()
    return Round(scenario, shard, started, killed, promoted, time.monotonic(), behind, probed)


def cut_for(
    cluster: ReplicatedCluster,
    master: Node,
    replica: Node,
    seconds: float,
    probe: Callable[[], Counter[int]] | None,
) -> tuple[int, Counter[int]]:
    """Cut the replica's link for `seconds` of writes (or until `probe` is done, if later); how many bytes
    of stream it then lacks, and what the probe was answered."""
    cluster.cut(master)
    deadline = time.monotonic() + 5
    while cluster.link_up(replica):
        assert time.monotonic() < deadline, "the replica's link stayed up after the cut"
        time.sleep(0.01)
    probed: Counter[int] = Counter()
    prober = threading.Thread(target=lambda: probed.update(probe() if probe else ()))
    prober.start()
    time.sleep(seconds)
    prober.join()
    told = int(cluster.replication(master)["master_repl_offset"])
    has = int(cluster.replication(replica)["master_repl_offset"])
    assert not cluster.link_up(replica), "the replica reconnected during the cut"
    return told - has, probed


def resent(base_url: str, battle: tuple[str, str], tally: Tally) -> Counter[int]:
    """One keyed command, then RESENDS of it at once: what each was answered (all in `tally` too, so an
    acknowledged one is held against the log after the failover)."""
    battle_id, token = battle
    key = uuid.uuid4().hex
    headers = bearer(token) | {"Idempotency-Key": key}
    with tally.lock:
        tally.sent += 1  # one command, however often it is sent

    def send(_: int = 0) -> int:
        answer = request(base_url, "POST", f"/battles/{battle_id}/commands", {"type": FILLER}, headers)
        tally.answered(answer, battle_id, key)
        return answer.status

    answers = Counter([send()])
    with ThreadPoolExecutor(RESENDS) as pool:
        answers.update(pool.map(send, range(RESENDS)))
    return answers


def in_window(at: float, first: float, last: float) -> bool:
    return first <= at < last


def elsewhere_rates(r: Round, receipts: Sequence[Receipt], shards: dict[str, int]) -> tuple[float, float]:
    """Acknowledgements per second of the other masters' battles: before the kill, during the failover."""
    others = [x.at for x in receipts if shards[x.battle_id] != r.shard]
    before = sum(in_window(at, r.started, r.killed) for at in others) / (r.killed - r.started)
    during = sum(in_window(at, r.killed, r.promoted) for at in others) / (r.promoted - r.killed)
    return before, during


def print_table(rounds: Sequence[Round], tally: Tally, found: Losses, shards: dict[str, int]) -> None:
    """One row per round (answers counted from the round's start to the next one's), then the totals."""
    edges = [r.started for r in rounds[1:]] + [float("inf")]
    lost_by_receipt = {id(r) for r in found.lost}
    reused_by_receipt = {id(r) for r in found.reused.values()}
    print(
        "\n| round | acknowledged | present | lost | versions reused | 503 | 500 | other | failover s | "
        "2xx/s on the other masters, before → during it | 2xx on the victim during it | stream behind (B) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    start = 0.0
    for n, (r, end) in enumerate(zip(rounds, edges, strict=True)):
        receipts = [x for x in tally.receipts if in_window(x.at, start, end)]
        heard = [h for h in tally.heard if in_window(h.at, start, end)]
        lost = sum(id(x) in lost_by_receipt for x in receipts)
        reused = sum(id(x) in reused_by_receipt for x in receipts)
        before, during = elsewhere_rates(r, tally.receipts, shards)
        on_victim = sum(
            in_window(x.at, r.killed, r.promoted) and shards[x.battle_id] == r.shard for x in tally.receipts
        )
        s503 = sum(h.status == 503 for h in heard)
        s500 = sum(h.status == 500 for h in heard)
        other = sum(h.status not in (200, 202, 500, 503) for h in heard)
        print(
            f"| {n + 1}: {r.scenario} | {len(receipts)} | {len(receipts) - lost} | {lost} | {reused} | "
            f"{s503} | {s500} | {other} | {r.promoted - r.killed:.1f} | {before:.0f} → {during:.0f} | "
            f"{on_victim} | {r.behind} |"
        )
        start = end
    total = len(tally.receipts)
    print(
        f"| all | {total} | {total - len(found.lost)} | {len(found.lost)} | {len(found.reused)} | "
        f"{tally.statuses[503]} | {tally.statuses[500]} | "
        f"{sum(n for s, n in tally.statuses.items() if s not in (200, 202, 500, 503))} | | | | |"
    )
    print(
        f"sent={tally.sent} answers={dict(sorted(tally.statuses.items()))} "
        f"503 without Retry-After={tally.retry_after_missing} "
        f"Idempotency-Keys in the logs twice={len(found.keys_twice)}; "
        f"probes during a cut: {[dict(r.probed) for r in rounds if r.probed]}; cross-battle keys on shard: "
        + ", ".join(f"{k} {shard_of_key(k)}" for k in (keys.PENDING, keys.SCHEDULED, keys.BATTLES)),
        flush=True,
    )


def shard_of_key(key: str) -> int:
    slot = key_slot(key.encode())
    return next(n for n, (first, last) in enumerate(slot_ranges()) if first <= slot <= last)


def test_every_acknowledged_command_survives_three_master_failovers(failovers: Failovers) -> None:
    found = failovers.losses
    print(f"\n[cluster failover] {len(failovers.rounds)} master SIGKILLs in {failovers.elapsed_s:.0f}s")

    assert len(failovers.tally.receipts) > 0
    assert [r.shard for r in failovers.rounds] == [0, 1, 2]
    assert all(r.behind > 0 for r in failovers.rounds if "cut" in r.scenario)  # the cut stopped the stream
    assert found.lost == [], f"{len(found.lost)} acknowledged commands lost, e.g. {found.lost[:3]}"
    assert found.reused == {}, f"{len(found.reused)} acknowledged versions given to other commands"
    assert found.keys_twice == {}, f"{len(found.keys_twice)} Idempotency-Keys appended twice"


def test_a_command_is_not_acknowledged_while_only_its_master_has_it_even_when_resent(
    failovers: Failovers,
) -> None:
    probed = [r.probed for r in failovers.rounds if r.probed]

    assert probed and all(sum(p.values()) == 1 + RESENDS for p in probed), probed
    assert all(set(p) == {503} for p in probed), probed  # the first attempt and every resend refused


def test_no_answer_is_a_500_and_every_503_says_when_to_retry(failovers: Failovers) -> None:
    statuses = failovers.tally.statuses

    assert statuses[500] == 0, dict(statuses)
    assert failovers.tally.retry_after_missing == 0
    assert {s for s in statuses if s >= 500 or s == 0} <= {503}, dict(statuses)  # nor a cut connection


def test_battles_on_the_other_masters_keep_their_pace_while_a_master_fails_over(failovers: Failovers) -> None:
    tally, shards = failovers.tally, failovers.shards
    for r in failovers.rounds:
        before, during = elsewhere_rates(r, tally.receipts, shards)
        assert during >= before * KEPT_PACE, (
            f"round {r.scenario!r}: the other masters' battles went from {before:.0f} to {during:.0f} "
            f"acknowledgements/s during the {r.promoted - r.killed:.1f}s failover"
        )


def test_the_projections_converge_and_audit_clean_after_the_failovers(failovers: Failovers) -> None:
    checked = check_clean(failovers.run.base_url, failovers.store, failovers.battles)

    assert checked == len(failovers.battles)
