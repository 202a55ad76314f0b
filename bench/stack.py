"""What a benchmark measures: the embedded store, the service as `make run` starts it, and the baseline."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from eventstore.embedded import EmbeddedServer
from launcher import commands
from launcher.probes import answers_200, free_port, wait_until
from launcher.stack import Stack, child_env

BENCH_RATE_LIMIT = "100000000 per minute"
# both budgets: each token's and the one every token of a battle shares (the one-battle scenarios)
BENCH_BUDGETS = {"SIEGE_RATE_LIMIT": BENCH_RATE_LIMIT, "SIEGE_BATTLE_RATE_LIMIT": BENCH_RATE_LIMIT}
BASELINE_APP = (
    "bench.baseline_app:app"  # the bare Flask + XADD app the project was given: the floor for ingest
)


@dataclass(frozen=True, slots=True)
class Bench:
    redis_url: str
    service_url: str
    baseline_url: str
    api_key: str


@contextmanager
def running(data_dir: Path, workers: int, log_path: Path) -> Iterator[Bench]:
    """Store, `workers` RQ workers, reconciler, the service and the baseline, all on loopback."""
    api_key = secrets.token_urlsafe(16)
    with EmbeddedServer(data_dir) as server, log_path.open("ab") as log:
        # a budget no load here reaches: still counted on every request, as in production, never a 429
        env = {**child_env(server.url, server.url, api_key), **BENCH_BUDGETS}
        stack = Stack(output=log)
        try:
            bench = Bench(server.url, _url(), _url(), api_key)
            for n in range(workers):
                stack.start(f"worker-{n + 1}", commands.worker(server.url), env)
            stack.start("reconciler", commands.reconciler(), env)
            stack.start("api", commands.api(bind_of(bench.service_url)), env)
            # the same gunicorn settings as the service, only the app differs
            stack.start("baseline", [*commands.api(bind_of(bench.baseline_url))[:-1], BASELINE_APP], env)
            for url in (f"{bench.service_url}/readyz", f"{bench.baseline_url}/hello"):
                if not wait_until(lambda u=url: answers_200(u), stack, threading.Event()):  # type: ignore[misc]
                    raise RuntimeError(f"{url} did not answer; see {log_path}")
            yield bench
        finally:
            stack.stop()


def _url() -> str:
    return f"http://127.0.0.1:{free_port()}"


def bind_of(url: str) -> str:
    """host:port of a loopback URL, as gunicorn binds it and as its command line shows it."""
    return url.removeprefix("http://")
