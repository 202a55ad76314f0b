"""`python -m bench.ack [--quick]`: what the replica acknowledgement costs per command. Appends through
`RedisEventStore.append`, one after another and from a few threads at once, on one embedded node and on a
replicated cluster (3 masters, a replica each, all `appendfsync always`): with no acknowledgement, with
one replica's (WAIT) and with one replica's fsync (WAITAOF). Appends only, no API and no folds, so the
difference between rows is the acknowledgement's own round trip. Each measure stops at its count or its
time budget, whichever comes first: a Valkey replica reports its fsynced offset about once a second, so
a WAITAOF append takes about that long."""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from redis.cluster import RedisCluster

from bench.measures import Row
from eventstore.config import connect
from eventstore.embedded import EmbeddedServer
from eventstore.records import AppendRequest, NewEntry
from eventstore.redis_store import RedisEventStore
from eventstore.replication import ReplicaAck
from tests.fixtures.cluster import replicated_cluster
from tests.workers.logs import FILLER, new_battle

APPENDS, QUICK_APPENDS = 2_000, 300  # per measure, sequential and threaded each
BUDGET_S, QUICK_BUDGET_S = 6.0, 2.0  # per measure: what bounds the WAITAOF ones
THREADS = 4
BATTLES = 12  # spread over the cluster's masters by their hash tags
WARM = 3  # appends before timing: scripts loaded, connections open
ACK_TIMEOUT_MS = 3_000  # well past WAITAOF's second: the bench times acknowledgements, not refusals


@dataclass(frozen=True, slots=True)
class Timing:
    label: str
    sequential_us: float  # one append after another: the latency of one
    threaded_us: float  # wall time per append with THREADS appending at once: the cost under load
    appends: int  # timed, both runs together


def entry() -> NewEntry:
    return NewEntry(
        type=FILLER,
        data={},
        schema_version=1,
        actor="bench",
        idempotency_key=None,
        recorded_at=datetime.now(UTC).isoformat(),
        dice={},
    )


def appends_us(
    store: RedisEventStore, battles: Sequence[str], count: int, threads: int, budget_s: float
) -> tuple[float, int]:
    """Wall µs per append of up to `count` appends, `threads` at once, each thread on battles of its own,
    stopping when `budget_s` is spent; and how many were made."""
    each = max(count // threads, 1)
    made = [0] * threads
    failed: list[BaseException] = []
    deadline = time.perf_counter() + budget_s

    def write(n: int) -> None:
        mine = battles[n::threads] or battles
        try:
            while made[n] < each and time.perf_counter() < deadline:
                store.append(AppendRequest(battle_id=mine[made[n] % len(mine)], entry=entry()))
                made[n] += 1
        except BaseException as error:  # reported after the join: a failed run must not look fast
            failed.append(error)

    workers = [threading.Thread(target=write, args=(n,)) for n in range(threads)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - started
    if failed:
        raise RuntimeError(f"{len(failed)} of {threads} appenders failed") from failed[0]
    return elapsed * 1e6 / max(sum(made), 1), sum(made)


def timed(label: str, store: RedisEventStore, battles: Sequence[str], count: int, budget_s: float) -> Timing:
    appends_us(store, battles, WARM, 1, budget_s)
    sequential, one = appends_us(store, battles, count, 1, budget_s)
    threaded, many = appends_us(store, battles, count, THREADS, budget_s)
    return Timing(label, sequential, threaded, one + many)


def measure(data_dir: Path, *, quick: bool = False) -> list[Timing]:
    count = QUICK_APPENDS if quick else APPENDS
    budget_s = QUICK_BUDGET_S if quick else BUDGET_S
    with EmbeddedServer(data_dir / "single", durability="durable") as single:
        client = connect(single.url)
        try:
            store = RedisEventStore(client)
            battles = [new_battle(store) for _ in range(BATTLES)]
            found = [timed("one embedded node", store, battles, count, budget_s)]
        finally:
            client.close()
    with replicated_cluster(data_dir / "cluster", durability="durable") as cluster:
        clustered: RedisCluster[bytes] = RedisCluster(startup_nodes=cluster.startup_nodes())
        try:
            # created without waiting, so only the timed appends pay for an acknowledgement
            battles = [new_battle(RedisEventStore(clustered)) for _ in range(BATTLES)]
            acks = [
                ("cluster, ack 0 (no wait)", None),
                ("cluster, ack 1 (WAIT)", ReplicaAck(replicas=1, timeout_ms=ACK_TIMEOUT_MS, fsynced=False)),
                (
                    "cluster, ack 1 durable (WAITAOF)",
                    ReplicaAck(replicas=1, timeout_ms=ACK_TIMEOUT_MS, fsynced=True),
                ),
            ]
            for label, ack in acks:
                found.append(timed(label, RedisEventStore(clustered, ack=ack), battles, count, budget_s))
        finally:
            clustered.close()
    return found


def rows(timings: Sequence[Timing]) -> list[Row]:
    """One row per setup; the acknowledged ones say what they add to the cluster without one."""
    base = next((t for t in timings if "ack 0" in t.label), None)
    found = []
    for t in timings:
        result = f"{t.sequential_us:,.0f} µs sequential, {t.threaded_us:,.0f} µs with {THREADS} threads"
        if base is not None and t is not base and "cluster" in t.label:
            extra_seq, extra_threaded = t.sequential_us - base.sequential_us, t.threaded_us - base.threaded_us
            result += f"; {extra_seq:+,.0f} µs and {extra_threaded:+,.0f} µs over ack 0"
        result += f" ({t.appends:,} appends)"
        found.append(Row(f"append per command, {t.label}", result))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ack", description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help=f"{QUICK_APPENDS} appends or {QUICK_BUDGET_S:.0f} s per measure"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="siege-bench-ack-") as data_dir:
        for row in rows(measure(Path(data_dir), quick=args.quick)):
            print(f"| {row.measure} | {row.result} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
