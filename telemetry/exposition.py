"""How a process exposes the metrics: a scrape's registry, the text format, a listener of its own.

Under gunicorn (several processes) and under `make run` (API, workers and reconciler, processes of one
machine) the client runs in multiprocess mode: PROMETHEUS_MULTIPROC_DIR names a directory every process
writes its samples to, set before any of them imports prometheus_client (gunicorn_conf's `on_starting`,
or the launcher for all its children), and a scrape adds them up. Without it a process's samples live in
its own memory (tests, a worker in a container of its own serving `--metrics-bind`). This module declares
no metric, so gunicorn's master can import it without writing samples of its own."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

from prometheus_client import CollectorRegistry, multiprocess, start_http_server
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import REGISTRY, Collector

MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST


class _ThisProcess(Collector):
    """The default registry (this process's metrics), as one collector of a scrape's registry."""

    def collect(self) -> Iterator[Metric]:
        return iter(REGISTRY.collect())


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROC_DIR) or None


def scrape_registry(extra: Iterable[Collector] = ()) -> CollectorRegistry:
    """What one scrape reports: every process's samples (multiprocess mode) or this process's, plus
    `extra` collectors read at scrape time (e.g. queue depth)."""
    registry = CollectorRegistry()
    if multiprocess_dir() is not None:
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry.register(_ThisProcess())
    for collector in extra:
        registry.register(collector)
    return registry


def exposition(extra: Iterable[Collector] = ()) -> bytes:
    """The Prometheus text format of one scrape."""
    return generate_latest(scrape_registry(extra))


def serve(bind: str, extra: Iterable[Collector] = ()) -> None:
    """Serve the metrics on `host:port` from a thread of this process, apart from any API port."""
    host, _, port = bind.rpartition(":")
    start_http_server(int(port), addr=host.strip("[]") or "0.0.0.0", registry=scrape_registry(extra))


def process_dead(pid: int) -> None:
    """gunicorn's `child_exit`: a dead worker's live gauges go; its counters stay in the sums."""
    if multiprocess_dir() is not None:
        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]
