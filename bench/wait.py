"""`python -m bench.wait`: `Prefer: wait` latency alone, on the stack `make bench` runs, in a few runs of
one start; with `--steps`, where each waited command's time goes, from the store's own clock (MONITOR):
sent → append received (the request's way in) → its battle locked by a drain (the fold scheduled) →
outcomes saved (the fold) → answer received (the save, the waiter woken, the response written and read).

MONITOR costs the store a copy of every command: compare runs with `--steps` with each other only."""

from __future__ import annotations

import argparse
import hashlib
import http.client
import itertools
import json
import re
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from prometheus_client.parser import text_string_to_metric_families

from bench import cpu
from bench.load import percentile
from bench.measures import COMMAND, create_battles
from bench.stack import Bench, bind_of, running
from eventstore import lua
from eventstore.config import connect

RESULTS = Path(__file__).resolve().parent / "results"
STEPS = ("way in", "scheduled", "fold", "way out")


@dataclass(frozen=True, slots=True)
class Sent:
    battle_id: str
    version: int  # as answered (0 when the answer named none)
    sent: float  # wall clock, as the store's MONITOR stamps commands
    answered: float
    status: int


@dataclass(frozen=True, slots=True)
class Sends:
    sent: list[Sent]
    errors: Counter[str]  # requests that raised, by exception type (the client goes on, newly connected)


def send(bench: Bench, battles: Sequence[tuple[str, str]], rate: float, seconds: float) -> Sends:
    """16 keep-alive clients at `rate` requests/s in all, each command with `Prefer: wait=5`."""
    url, threads, payload = urlsplit(bench.service_url), 16, json.dumps(COMMAND).encode()
    done: list[Sent] = []
    errors: Counter[str] = Counter()
    lock = threading.Lock()
    start = time.monotonic()

    def client(index: int) -> None:
        connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=30)
        interval = threads / rate
        due, n = start + index * interval / threads, index
        while (now := time.monotonic()) < start + seconds:
            if now < due:
                time.sleep(due - now)
            battle_id, token = battles[n % len(battles)]
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
            sent = time.time()
            try:
                connection.request(
                    "POST", f"/battles/{battle_id}/commands", payload, {**headers, "Prefer": "wait=5"}
                )
                response = connection.getresponse()
                body = response.read()
                answered = time.time()
                version = int(json.loads(body).get("version", 0)) if response.status < 300 else 0
                done.append(Sent(battle_id, version, sent, answered, response.status))
            except Exception as error:  # counted, not lost with the thread: a run must not under-report
                with lock:  # a Counter's += is a read then a write
                    errors[type(error).__name__] += 1
                connection.close()
                connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=30)
            due, n = due + interval, n + threads

    clients = [threading.Thread(target=client, args=(i,)) for i in range(threads)]
    for thread in clients:
        thread.start()
    for thread in clients:
        thread.join()
    return Sends(done, errors)


@contextmanager
def monitored(redis_url: str) -> Iterator[list[str]]:
    """The store's MONITOR lines while the block runs, kept raw (parsed after, off the clients' way)."""
    client = connect(redis_url)
    connection = client.connection_pool.get_connection()
    connection.send_command("MONITOR")
    connection.read_response()
    lines: list[str] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            line = connection.read_response()
            lines.append(line.decode() if isinstance(line, bytes) else str(line))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield lines
    finally:
        stop.set()
        client.set("siege:bench:monitor:end", 1)  # one more line, so the reader sees the stop
        reader.join(timeout=5)
        connection.disconnect()


def script_sha(name: str) -> str:
    """The SHA-1 the store's EVALSHA names the script by (what eventstore.lua.register loads)."""
    text = "\n".join(lua.source(part) for part in (*lua.PRELUDES.get(name, ()), name))
    return hashlib.sha1(text.encode()).hexdigest()  # Redis names a script by its SHA-1


LINE = re.compile(
    r'^(\d+\.\d+) \[\d+ [\d.:]+\] "EVALSHA" "([0-9a-f]{40})" "\d+" "siege:\{([^}]+)\}:(\w+)"(.*)$'
)


def steps(sent: Sequence[Sent], lines: Sequence[str]) -> dict[tuple[str, int], list[float]]:
    """Each waited command's four steps (ms), by (battle, version)."""
    append, lock, save = (script_sha(name) for name in ("append", "begin_fold", "save_projection"))
    appended: dict[tuple[str, int], float] = {}
    locks: dict[str, list[float]] = {}
    saves: dict[str, list[tuple[float, int]]] = {}
    for line in lines:
        found = LINE.match(line)
        if not found:
            continue
        at, sha, battle_id, rest = float(found[1]), found[2], found[3], found[5]
        if sha == append and (version := re.search(r'"0-(\d+)"', rest)):
            appended.setdefault((battle_id, int(version[1])), at)
        elif sha == lock:
            locks.setdefault(battle_id, []).append(at)
        elif sha == save and (args := re.search(r'" "(\d+)" ', rest)):
            saves.setdefault(battle_id, []).append((at, int(args[1])))  # the state's version: the last
    timed: dict[tuple[str, int], list[float]] = {}
    for s in sent:
        got = appended.get((s.battle_id, s.version))
        if s.status != 200 or got is None:
            continue
        locked = next((t for t in locks.get(s.battle_id, []) if t >= got), None)
        saved = next((t for t, upto in saves.get(s.battle_id, []) if t >= got and upto >= s.version), None)
        if locked is None or saved is None or not s.sent <= got <= locked <= saved <= s.answered:
            continue
        marks = (s.sent, got, locked, saved, s.answered)
        timed[(s.battle_id, s.version)] = [(b - a) * 1000 for a, b in itertools.pairwise(marks)]
    return timed


@dataclass(frozen=True, slots=True)
class Costs:
    """CPU seconds of the store and of the service's gunicorn workers, the store's calls by command, and
    the API processes' garbage collections by generation: (how many, seconds in all)."""

    store_s: float
    api_s: float
    calls: dict[str, int]
    collections: dict[str, tuple[float, float]]

    def __sub__(self, before: Costs) -> Costs:
        calls = {name: n - before.calls.get(name, 0) for name, n in self.calls.items()}
        collections = {}
        for generation, (n, s) in self.collections.items():
            n_before, s_before = before.collections.get(generation, (0.0, 0.0))
            collections[generation] = (n - n_before, s - s_before)
        return Costs(self.store_s - before.store_s, self.api_s - before.api_s, calls, collections)


def costs(bench: Bench) -> Costs:
    client = connect(bench.redis_url)
    used = client.info("cpu")
    calls = {
        name.removeprefix("cmdstat_"): int(stat["calls"])
        for name, stat in client.info("commandstats").items()
        if name in {"cmdstat_xread", "cmdstat_xrange", "cmdstat_xadd", "cmdstat_evalsha"}
    }
    store_s = float(used["used_cpu_user"]) + float(used["used_cpu_sys"])
    return Costs(store_s, _api_cpu_s(bench), calls, _api_collections(bench))


def _api_collections(bench: Bench) -> dict[str, tuple[float, float]]:
    """The API processes' timed collections (telemetry/gc_pauses.py), from the service's own /metrics;
    none when it does not serve them (SIEGE_METRICS off or behind a token)."""
    try:
        with urllib.request.urlopen(f"{bench.service_url}/metrics", timeout=10) as response:
            return api_collections(response.read().decode())
    except urllib.error.HTTPError:
        return {}


def api_collections(text: str) -> dict[str, tuple[float, float]]:
    """By generation, the API processes' collections in a scrape: (how many, seconds in all)."""
    count: dict[str, float] = {}
    total: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        if family.name != "siege_gc_pause_seconds":
            continue
        for s in family.samples:
            if s.labels.get("process") == "api" and s.name.endswith(("_count", "_sum")):
                (count if s.name.endswith("_count") else total)[s.labels["generation"]] = s.value
    return {generation: (n, total.get(generation, 0.0)) for generation, n in count.items()}


def _api_cpu_s(bench: Bench) -> float:
    """User + system CPU seconds of the processes serving the service's port (gunicorn: master, workers)."""
    return cpu.by_role(cpu.processes(), bind_of(bench.service_url))["api"]


def report(run: int, sends: Sends, timed: dict[tuple[str, int], list[float]] | None, spent: Costs) -> str:
    sent = sends.sent
    waited = [(s.answered - s.sent) * 1000 for s in sent if s.status == 200]
    everything = [(s.answered - s.sent) * 1000 for s in sent]
    declined, n = sum(s.status == 202 for s in sent), max(len(sent), 1)
    calls = ", ".join(f"{name} {count / n:.2f}" for name, count in sorted(spent.calls.items()))
    lines = [
        f"run {run}: {len(sent)} sent; {len(waited)} waited p50 {percentile(waited, 50):.1f} ms, "
        f"p90 {percentile(waited, 90):.1f} ms, p99 {percentile(waited, 99):.1f} ms; {declined} answered 202; "
        f"all answers p99 {percentile(everything, 99):.1f} ms; {said(sends.errors)}",
        f"  per request: store CPU {1000 * spent.store_s / n:.3f} ms, "
        f"API CPU {1000 * spent.api_s / n:.3f} ms; store calls: {calls}",
        "  API garbage collections: "
        + (
            ", ".join(
                f"generation {generation} {count:.0f} ({1000 * seconds:.1f} ms in all)"
                for generation, (count, seconds) in sorted(spent.collections.items())
            )
            or "none timed (or /metrics not served)"
        ),
    ]
    if timed:
        rows = sorted(timed.values(), key=sum)
        slowest = rows[-max(len(rows) // 100, 1) :]  # the 1 % the p99 is made of
        lines.append(f"  steps of {len(rows)} commands (ms): p50 / p90 / p99 / mean of the slowest 1 %")
        for n, name in enumerate(STEPS):
            values = [row[n] for row in rows]
            tail = sum(row[n] for row in slowest) / len(slowest)
            lines.append(
                f"  {name:<10} {percentile(values, 50):7.2f} {percentile(values, 90):7.2f} "
                f"{percentile(values, 99):7.2f} {tail:7.2f}"
            )
    return "\n".join(lines)


def said(counted: Counter[str]) -> str:
    """The requests that raised, by exception type: a run with any sent fewer than it says."""
    by_type = ", ".join(f"{name} {n}" for name, n in sorted(counted.items()))
    return f"{counted.total()} errors" + (f" ({by_type})" if by_type else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.wait", description=__doc__)
    parser.add_argument("--rate", type=float, default=300.0, help="requests/s (default 300: half of ~600)")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each run (default 5)")
    parser.add_argument("--runs", type=int, default=3, help="runs on the one stack (default 3)")
    parser.add_argument("--battles", type=int, default=100, help="battles the load spreads over")
    parser.add_argument("--workers", type=int, default=2, help="RQ workers")
    parser.add_argument("--steps", action="store_true", help="time each step through the store's MONITOR")
    args = parser.parse_args(argv)
    RESULTS.mkdir(exist_ok=True)
    with (
        tempfile.TemporaryDirectory(prefix="siege-bench-wait-") as data_dir,
        running(Path(data_dir), args.workers, RESULTS / "processes.log") as bench,
    ):
        battles = create_battles(bench, args.battles)
        send(bench, battles, args.rate, 2.0)  # warm: every process has met every battle
        for run in range(1, args.runs + 1):
            before = costs(bench)
            if args.steps:
                with monitored(bench.redis_url) as lines:
                    sent = send(bench, battles, args.rate, args.seconds)
                timed: dict[tuple[str, int], list[float]] | None = steps(sent.sent, lines)
            else:
                sent, timed = send(bench, battles, args.rate, args.seconds), None
            print(report(run, sent, timed, costs(bench) - before), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
