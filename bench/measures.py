"""Each benchmark, as a function from a running stack to one row of the report."""

from __future__ import annotations

import http.client
import itertools
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench import cpu, scenarios
from bench.biglog import extend
from bench.lag import LagProbe
from bench.load import Target, paced, percentile, throughput
from bench.stack import Bench, bind_of
from eventstore.config import connect
from eventstore.redis_store import RedisEventStore
from workers.projection import project_battle
from workers.replay import rebuild, verify

COMMAND: dict[str, object] = {"type": "advance_phase"}  # an epic command with no fields and no dice


@dataclass(frozen=True, slots=True)
class Row:
    measure: str
    result: str
    bar: str = ""


def create_battles(bench: Bench, count: int, ruleset: str = "epic") -> list[tuple[str, str]]:
    """(battle id, GM token) of `count` new battles, created through the API."""
    url = urlsplit(bench.service_url)
    connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=30)
    made = []
    for _ in range(count):
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {bench.api_key}"}
        connection.request("POST", "/battles", body=json.dumps({"ruleset": ruleset}), headers=headers)
        response = connection.getresponse()
        body = json.loads(response.read())
        if response.status != 201:
            raise RuntimeError(f"POST /battles answered {response.status}: {body}")
        made.append((str(body["id"]), str(body["gm_token"])))
    return made


def ingest(bench: Bench, battles: Sequence[tuple[str, str]], seconds: float) -> tuple[list[Row], float]:
    catch_up(bench, battles)  # the battles' creations folded first: the baseline's run is the baseline's own
    started = cpu.processes()
    baseline = throughput(bench.baseline_url, [Target("/xadd", "none")], COMMAND, seconds)
    between = cpu.processes()
    targets = [Target(f"/battles/{b}/commands", token) for b, token in battles]
    with LagProbe(bench.service_url, bench.redis_url, battles) as probe:
        service = throughput(bench.service_url, targets, COMMAND, seconds)
    ended = cpu.processes()
    ratio = service.rate / baseline.rate if baseline.rate else float("nan")
    baseline_cpu = cpu.used(
        started, between, baseline.requests, bind_of(bench.baseline_url), ("api", "store")
    )
    service_cpu = cpu.used(between, ended, service.requests, bind_of(bench.service_url))
    rows = [
        Row(f"ingest: baseline (Flask + XADD), {baseline.tool}", f"{baseline.rate:,.0f} req/s"),
        Row(
            f"ingest: POST commands over {len(battles)} battles, {service.tool}",
            f"{service.rate:,.0f} req/s ({service.errors} non-2xx)",
        ),
        Row("ingest ratio, the whole system (fold beside the API) ÷ baseline", f"{ratio:.2f}", "reported"),
        # on saturated cores the rates go as the inverse of these: the gap, part by part
        Row("CPU per request of the baseline's processes", baseline_cpu.describe()),
        Row("CPU per accepted command of the service's processes", service_cpu.describe()),
        Row(
            f"projection lag during that load ({len(probe.lags_ms)} probes, 202 → outcome readable)",
            f"p50 {percentile(probe.lags_ms, 50):.0f} ms, p99 {percentile(probe.lags_ms, 99):.0f} ms",
            "p99 ≤ 250 ms",
        ),
    ]
    return rows, service.rate


def api_alone(bench: Bench, battles: Sequence[tuple[str, str]], seconds: float, baseline: float) -> list[Row]:
    """The design's ingest bar: the same load with the fold's processes (RQ workers, reconciler) stopped by
    SIGSTOP for the run and resumed after, so the API has the cores the baseline had; then the fold's
    CPU per command, measured while it catches up on what the run appended."""
    catch_up(bench, battles)
    targets = [Target(f"/battles/{b}/commands", token) for b, token in battles]
    with cpu.paused(cpu.FOLD_PROCESSES) as stopped:
        started = cpu.processes()
        service = throughput(bench.service_url, targets, COMMAND, seconds)
        ended = cpu.processes()
    caught = catch_up(bench, battles)
    folded = cpu.processes()
    api = cpu.used(started, ended, service.requests, bind_of(bench.service_url), ("api", "store"))
    fold = cpu.used(ended, folded, service.requests, bind_of(bench.service_url), ("fold", "store", "other"))
    ratio = service.rate / baseline if baseline else float("nan")
    return [
        Row(
            f"ingest: the API alone over {len(battles)} battles ({len(stopped)} fold processes paused), "
            f"{service.tool}",
            f"{service.rate:,.0f} req/s ({service.errors} non-2xx), **{ratio:.2f}** of the baseline",
            "≥ 0.8",
        ),
        Row("  CPU per accepted command of the API and the store, workers paused", api.describe()),
        Row(f"  the fold caught up after: {caught.result}, CPU per command", fold.describe()),
    ]


def baseline_rate(rows: Sequence[Row]) -> float:
    """The baseline's req/s as `ingest` reported it, for the rows measured against it later."""
    found = next(r.result for r in rows if r.measure.startswith("ingest: baseline"))
    return float(found.split()[0].replace(",", ""))


def catch_up(bench: Bench, battles: Sequence[tuple[str, str]], timeout_s: float = 120) -> Row:
    """How long after the load stops until every projection reaches its log head."""
    store = RedisEventStore(connect(bench.redis_url))
    start = time.monotonic()
    while time.monotonic() - start < timeout_s:
        lagging = [b for b, _ in battles if _projected(store, b) < store.head(b).version]
        if not lagging:
            return Row("projection catch-up after the ingest run", f"{time.monotonic() - start:.2f} s")
        time.sleep(0.05)
    return Row("projection catch-up after the ingest run", f"not caught up after {timeout_s:.0f} s")


def wait_latency(bench: Bench, battles: Sequence[tuple[str, str]], rate: float, seconds: float) -> Row:
    targets = [Target(f"/battles/{b}/commands", token) for b, token in battles]
    run = paced(bench.service_url, targets, COMMAND, seconds, rate=rate, headers={"Prefer": "wait=5"})
    # only the 200s waited for their outcome: a 202 is a wait declined (past SIEGE_MAX_WAITERS) or timed out
    waited, declined = run.answered_ms.get(200, []), len(run.answered_ms.get(202, []))
    p50, p99 = percentile(waited, 50), percentile(waited, 99)
    return Row(
        f"Prefer: wait=5 at {rate:,.0f} req/s asked ({run.rate:,.0f} sent)",
        f"p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(waited)} outcomes waited for, {declined} answered 202)",
        "p99 ≤ 30 ms idle, ≤ 50 ms loaded",
    )


def fold(bench: Bench, battle_id: str, entries: int) -> Row:
    count, seconds = _timed_fold(bench, battle_id, ({"type": COMMAND["type"]} for _ in range(entries)))
    rate = f"{count / seconds:,.0f} entries/s"
    return Row(f"fold one hot battle ({count:,} entries, in-process)", rate, "≥ 20,000/s")


def fold_mixed(bench: Bench, ruleset: str, entries: int) -> list[Row]:
    """A fresh battle of `ruleset` with a representative log (bench.scenarios), folded in-process, then
    rebuilt and verified as a replay job does in a worker process (issue 11: end to end, through Redis)."""
    ((battle_id, _token),) = create_battles(bench, 1, ruleset)
    source = scenarios.epic_turns(10**6) if ruleset == "epic" else scenarios.pathfinder_rounds(10**6)
    count, seconds = _timed_fold(bench, battle_id, itertools.islice(source, entries))
    what = (
        "epic turns: orders, moves, climbs, fire, assaults"
        if ruleset == "epic"
        else "pathfinder rounds of fire"
    )
    store = RedisEventStore(connect(bench.redis_url))
    start = time.perf_counter()
    rebuilt = rebuild(store, store, battle_id).to_version
    rebuild_s = time.perf_counter() - start
    start = time.perf_counter()
    verdict = verify(store, store, battle_id)
    verify_s = time.perf_counter() - start
    return [
        Row(f"fold a mixed {ruleset} log ({count:,} entries of {what})", f"{count / seconds:,.0f} entries/s"),
        Row(
            f"  rebuild of that {ruleset} battle through Redis",
            f"{rebuilt / rebuild_s:,.0f} entries/s",
            "≥ 20,000/s",
        ),
        Row(
            f"  verify replay of that {ruleset} battle (ok: {verdict.ok})",
            f"{rebuilt / verify_s:,.0f} entries/s",
            "≥ 20,000/s",
        ),
    ]


def export_verify(bench: Bench, entries: int, work_dir: Path) -> list[Row]:
    """A concluded battle of `entries` versions, exported by `siege export` and checked by `siege verify`,
    each in a process of its own whose peak RSS is the number (streamed, not loaded)."""
    ((battle_id, _token),) = create_battles(bench, 1)
    commands: Iterable[dict[str, object]] = itertools.chain(
        ({"type": COMMAND["type"]} for _ in range(max(entries - 2, 0))), ({"type": "conclude"},)
    )
    _timed_fold(bench, battle_id, commands)
    siege, target = str(Path(sys.executable).with_name("siege")), work_dir / "export.jsonl"
    exported = _child_rss([siege, "export", battle_id, "-o", str(target)], {"REDIS_URL": bench.redis_url})
    verified = _child_rss([siege, "verify", str(target)], {})
    size_mb = target.stat().st_size / 2**20
    return [
        Row(
            f"siege export of a {entries:,}-entry battle ({size_mb:,.0f} MB of JSON Lines)",
            f"peak RSS {exported['max_rss_mb']:.0f} MB, {entries / exported['seconds']:,.0f} entries/s",
            "< 300 MB for 1,000,000",
        ),
        Row(
            f"siege verify of that export (exit {verified['exit']}: chain, outcomes re-folded, dice)",
            f"peak RSS {verified['max_rss_mb']:.0f} MB, {entries / verified['seconds']:,.0f} entries/s",
            "< 300 MB for 1,000,000",
        ),
    ]


def _child_rss(command: list[str], env: dict[str, str]) -> dict[str, Any]:
    runner = [sys.executable, "-m", "bench.cli_rss", *command]
    done = subprocess.run(
        runner, capture_output=True, text=True, check=True, timeout=7200, env={**os.environ, **env}
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _timed_fold(bench: Bench, battle_id: str, commands: Iterable[dict[str, object]]) -> tuple[int, float]:
    """(entries folded, seconds) of one in-process fold of `commands` appended to the battle."""
    client = connect(bench.redis_url)
    store = RedisEventStore(client)
    # held so the running workers leave this battle to the in-process fold being timed; a worker may be
    # folding the battle's creation at this moment, and its lock lapses within a second
    if not wait_for(lambda: store.try_lock(battle_id, "bench", 3_600_000), timeout_s=5):
        raise RuntimeError(f"could not lock battle {battle_id} away from the workers")
    try:
        extend(client, store, battle_id, commands)
        start = time.perf_counter()
        folded = project_battle(store, store, battle_id)
        seconds = time.perf_counter() - start
    finally:
        store.unlock(battle_id, "bench")
    return folded.to_version - folded.from_version, seconds


def state_at(bench: Bench, battle_id: str, token: str, samples: int) -> Row:
    head = RedisEventStore(connect(bench.redis_url)).head(battle_id).version
    url = urlsplit(bench.service_url)
    connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=30)
    times, rng = [], random.Random(7)
    for _ in range(samples):
        start = time.perf_counter()
        path = f"/battles/{battle_id}/state?at={rng.randint(1, head)}"
        connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        response.read()
        assert response.status == 200, (response.status, path)
        times.append((time.perf_counter() - start) * 1000)
    return Row(
        f"GET state?at=v on a {head:,}-entry battle ({samples} random v)",
        f"p50 {percentile(times, 50):.1f} ms, p99 {percentile(times, 99):.1f} ms",
        "≤ 50 ms",
    )


def replay_memory(bench: Bench, battle_id: str) -> Row:
    """A fresh process rebuilds the battle, as a replay job does; its peak RSS is the number."""
    command = [sys.executable, "-m", "bench.replay_rss", bench.redis_url, battle_id]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=3600)
    result = json.loads(done.stdout)
    return Row(
        f"replay {result['entries']:,} entries in one worker process",
        f"peak RSS {result['max_rss_mb']:.0f} MB, {result['entries'] / result['seconds']:,.0f} entries/s",
        "< 300 MB for 1,000,000",
    )


def wait_for(done: Callable[[], bool], *, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _projected(store: RedisEventStore, battle_id: str) -> int:
    projection = store.projection(battle_id)
    return projection.version if projection else 0
