"""bench.wait's clients: a request that raises is counted and shown in the run's line, not lost with its
thread (a run would otherwise report fewer sent and look faster than it was)."""

from __future__ import annotations

import socket
import threading
from collections import Counter
from collections.abc import Iterator

import pytest

from bench.stack import Bench
from bench.wait import Costs, Sends, api_collections, report, send
from telemetry.exposition import exposition
from telemetry.metrics import GC_PAUSE_SECONDS


@pytest.fixture
def hanging_up() -> Iterator[str]:
    """A loopback server that takes each connection and closes it unanswered."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                return  # the listener closed
            connection.recv(65536)
            connection.close()

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    listener.close()


def test_requests_that_raise_are_counted_and_reported(hanging_up: str) -> None:
    bench = Bench(redis_url="", service_url=hanging_up, baseline_url="", api_key="")

    sends = send(bench, [("b-1", "token")], rate=80.0, seconds=0.5)
    line = report(1, sends, None, Costs(0.0, 0.0, {}, {})).splitlines()[0]

    assert sends.sent == []
    assert sends.errors.total() >= 16  # every client met one at least, and went on
    by_type = ", ".join(f"{name} {n}" for name, n in sorted(sends.errors.items()))
    assert f"; {sends.errors.total()} errors ({by_type})" in line


def test_a_clean_run_says_it_had_no_errors() -> None:
    line = report(1, Sends([], Counter()), None, Costs(0.0, 0.0, {}, {})).splitlines()[0]

    assert line.endswith("; 0 errors")


def test_each_run_reports_the_api_processes_collections_as_the_metrics_count_them() -> None:
    def counted() -> dict[str, tuple[float, float]]:
        return api_collections(exposition().decode())

    before = counted()
    GC_PAUSE_SECONDS.labels(process="api", generation="2").observe(0.0187)
    GC_PAUSE_SECONDS.labels(process="worker", generation="2").observe(0.5)  # a worker's: not the API's
    after = counted()
    spent = Costs(0.0, 0.0, {}, after) - Costs(0.0, 0.0, {}, before)

    assert spent.collections["2"][0] == 1 and spent.collections["2"][1] == pytest.approx(0.0187)
    line = report(1, Sends([], Counter()), None, spent).splitlines()[-1]
    assert "generation 2 1 (18.7 ms in all)" in line
