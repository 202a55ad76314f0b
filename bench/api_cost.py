"""`python -m bench.api_cost [--commands N] [--top K]`: the API's own CPU per accepted command, beside the
baseline's per request, with no server, load generator or fold in the way: both WSGI apps are called
in this process on prepared requests against an embedded store, so the machine's neighbours change the
figures far less than they change a throughput ratio. Then the Python calls each app makes per request, by
who owns the code: a count, which no neighbour changes at all. Then a deterministic profile (cProfile) of
the service's calls, its own time summed by owner: the part of the design's ingest gap that is the API's
(gunicorn's parsing and writing, which both apps pay, is not in it)."""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from types import FrameType
from typing import Any

from werkzeug.test import EnvironBuilder

from bench.stack import BENCH_BUDGETS
from eventstore.embedded import EmbeddedServer
from launcher.stack import child_env

COMMAND = json.dumps({"type": "advance_phase"}).encode()  # what `make bench` sends: no fields, no dice
BATTLES = 100
WARM = 200  # calls before any timing: caches, the script's SHA, connection pools
API_KEY = "bench-api-cost-key-0123456789"
# who owns a frame, by where its code lives (first match); the rest is the interpreter's and the stdlib's
OWNERS = (
    ("site-packages/redis/", "redis-py (client, pool, parser)"),
    ("site-packages/marshmallow/", "marshmallow (validation)"),
    ("site-packages/flask_smorest/", "flask-smorest"),
    ("site-packages/flask_limiter/", "flask-limiter"),
    ("site-packages/limits/", "flask-limiter"),
    ("site-packages/flask_cors/", "flask-cors"),
    ("site-packages/flask/", "Flask and Werkzeug (request machinery)"),
    ("site-packages/werkzeug/", "Flask and Werkzeug (request machinery)"),
    ("site-packages/blinker/", "Flask and Werkzeug (request machinery)"),  # Flask's signals
    ("site-packages/prometheus_client/", "prometheus-client (metrics)"),
    ("/service/access/", "service.access (authentication, budgets)"),
    ("/service/commands/", "service.commands (submit, append, answer)"),
    ("/service/http/", "service.http (JSON in and out, CORS, logs)"),
    ("/service/", "service (other)"),
    ("/eventstore/", "eventstore (chain, append script's arguments)"),
    ("/schemas/", "schemas (command schemas)"),
    ("/telemetry/", "telemetry (metrics)"),
    ("/bench/", "bench (the baseline app)"),
    # cProfile's own rows for these C functions; a call count sees only Python frames
    ("recv_into", "waiting for the store's reply (not CPU)"),
    ("sendall", "sockets: sending"),
)
Call = Callable[[dict[str, Any]], str]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.api_cost", description=__doc__)
    parser.add_argument("--commands", type=int, default=3000, help="timed calls of each app (default 3000)")
    parser.add_argument("--top", type=int, default=12, help="functions listed by own time (default 12)")
    args = parser.parse_args(argv)
    with (
        tempfile.TemporaryDirectory(prefix="siege-api-cost-") as data_dir,
        EmbeddedServer(data_dir) as server,
    ):
        service, service_requests = _service(server.url, args.commands)
        baseline, baseline_requests = _baseline(server.url, args.commands)
        service_ms, baseline_ms = _cpu_ms(service, service_requests()), _cpu_ms(baseline, baseline_requests())
        print(f"service: {service_ms:.3f} ms of CPU per accepted command (in process, {args.commands} calls)")
        print(f"baseline: {baseline_ms:.3f} ms of CPU per request")
        print(f"the API's own cost: {service_ms / baseline_ms:.2f} x the baseline's")
        service_calls, baseline_calls = (
            _calls(service, service_requests()),
            _calls(baseline, baseline_requests()),
        )
        _report_calls(service_calls, baseline_calls, args.commands)
        profile = cProfile.Profile()
        requests = service_requests()
        profile.enable()
        for environ in requests:
            service(environ)
        profile.disable()
    _report(pstats.Stats(profile), args.commands, args.top)
    return 0


def _service(redis_url: str, count: int) -> tuple[Call, Callable[[], list[dict[str, Any]]]]:
    from service.app import create_app  # after the store runs: the app connects lazily, but reads its env
    from service.config import ServiceConfig

    env = {**child_env(redis_url, redis_url, API_KEY), **BENCH_BUDGETS}
    app = create_app(ServiceConfig.from_env(env))
    client = app.test_client()
    battles = []
    for _ in range(BATTLES):
        made = client.post(
            "/battles", json={"ruleset": "epic"}, headers={"Authorization": f"Bearer {API_KEY}"}
        )
        if made.status_code != 201:
            raise RuntimeError(f"POST /battles answered {made.status_code}: {made.get_data(as_text=True)}")
        battles.append((made.json["id"], made.json["gm_token"]))  # type: ignore[index]

    def requests() -> list[dict[str, Any]]:
        return [
            _environ(f"/battles/{b}/commands", token)
            for b, token in (battles[n % BATTLES] for n in range(count))
        ]

    call = _caller(app, "202")
    for environ in _take(requests(), WARM):
        call(environ)
    return call, requests


def _baseline(redis_url: str, count: int) -> tuple[Call, Callable[[], list[dict[str, Any]]]]:
    os.environ["REDIS_URL"] = redis_url  # the baseline app reads it at import, as under gunicorn
    from bench.baseline_app import app

    call = _caller(app, "202")
    for environ in [_environ("/xadd", "none") for _ in range(WARM)]:
        call(environ)
    return call, lambda: [_environ("/xadd", "none") for _ in range(count)]


def _environ(path: str, token: str) -> dict[str, Any]:
    headers = [
        ("Authorization", f"Bearer {token}"),
        ("Content-Type", "application/json"),
        ("Origin", "https://vtt.test"),
    ]
    built = EnvironBuilder(path=path, method="POST", data=COMMAND, headers=headers)
    environ: dict[str, Any] = built.get_environ()
    return environ


def _caller(app: Any, status: str) -> Call:
    def call(environ: dict[str, Any]) -> str:
        seen: list[str] = []
        for _chunk in app(environ, lambda answered, headers, exc_info=None: seen.append(answered)):
            pass
        if not seen or not seen[0].startswith(status):
            raise RuntimeError(f"{environ['PATH_INFO']} answered {seen}, not {status}")
        return seen[0]

    return call


def _take(items: list[dict[str, Any]], count: int) -> Iterable[dict[str, Any]]:
    return items[:count]


def _cpu_ms(call: Call, requests: list[dict[str, Any]]) -> float:
    started = time.process_time()
    for environ in requests:
        call(environ)
    return 1000 * (time.process_time() - started) / len(requests)


def _calls(call: Call, requests: list[dict[str, Any]]) -> Counter[str]:
    """Python function calls (a generator's resumption counts as one) made while answering `requests`,
    by owner."""
    counted: Counter[str] = Counter()

    def count(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call":
            counted[owner(frame.f_code.co_filename)] += 1

    sys.setprofile(count)
    try:
        for environ in requests:
            call(environ)
    finally:
        sys.setprofile(None)
    return counted


def _report_calls(service: Counter[str], baseline: Counter[str], count: int) -> None:
    total_s, total_b = sum(service.values()) / count, sum(baseline.values()) / count
    ratio = total_s / total_b
    print(f"\nPython calls per request: service {total_s:,.0f}, baseline {total_b:,.0f} ({ratio:.2f} x)")
    for who, _ in (service | baseline).most_common():
        print(f"  {service.get(who, 0) / count:7.1f}  {baseline.get(who, 0) / count:7.1f}  {who}")


def owner(where: str) -> str:
    return next((label for marker, label in OWNERS if marker in where), "Python and the standard library")


def _report(stats: pstats.Stats, count: int, top: int) -> None:
    own: dict[str, float] = defaultdict(float)
    rows = stats.stats  # type: ignore[attr-defined]
    total = sum(row[2] for row in rows.values())
    for (path, line, name), row in rows.items():
        own[owner(f"{path}:{line}({name})")] += row[2]
    print(f"\nown time by owner under cProfile ({total / count * 1000:.3f} ms a command with its overhead):")
    for who, seconds in sorted(own.items(), key=lambda item: -item[1]):
        print(f"  {100 * seconds / total:5.1f} %  {who}")
    print(f"\nthe {top} functions with the most own time:")
    stats.sort_stats("tottime").print_stats(top)


if __name__ == "__main__":
    raise SystemExit(main())
