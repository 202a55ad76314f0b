"""gunicorn's settings for the API (`gunicorn -c python:service.gunicorn_conf -b HOST:PORT service.wsgi:app`).

Threads, not sync workers: a `Prefer: wait` answer blocks on Redis (XREAD BLOCK, which releases the GIL)
for up to SIEGE_MAX_WAIT_S, and with sync workers two of them held every worker, so `/healthz` waited.
gthread keeps the code synchronous (no monkey-patching of redis-py or RQ, as gevent would need); the
service caps concurrent waits (SIEGE_MAX_WAITERS) and open SSE streams (SIEGE_MAX_STREAMS) per process
below `threads`, so a thread is always free.
Flags on the command line or in GUNICORN_CMD_ARGS override these."""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

workers = 2  # one process per core on the reference machine
worker_class = "gthread"
# per worker: a held wait or an open stream costs a thread, not the process; 64 streams (SIEGE_MAX_STREAMS)
# and 6 waits (SIEGE_MAX_WAITERS) leave 30 for commands, reads and /healthz
threads = 100
timeout = 30  # heartbeat: a worker whose main loop hangs this long is restarted (waits do not count)
graceful_timeout = 15  # on SIGTERM, requests in flight finish (open streams end at once, post_worker_init)
keepalive = 5  # seconds an idle keep-alive connection stays open
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # heartbeats on tmpfs, never a slow disk
control_socket_disable = True  # gunicorn >= 25 opens ~/.gunicorn/gunicorn.ctl, one path for every instance


class AppWritesAccessLines(Logger):  # type: ignore[misc]
    """gunicorn's own lines go through `logconfig_dict`; the app writes the one access line per request
    (service/http/logs.py), so gunicorn's, which a logging config turns on, is skipped before it is built."""

    def access(self, *_: Any) -> None:
        return None


logger_class = AppWritesAccessLines
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "telemetry.logs.JsonFormatter"}},
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    },
    "root": {"level": "INFO", "handlers": ["stderr"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": [], "propagate": True},
    },
}


# Prometheus multiprocess mode (telemetry/exposition.py): the master names the samples directory before it
# forks a worker, so every worker imports prometheus_client with it set; a directory we made, we remove.
_made_metrics_dir: list[str] = []


def on_starting(server: Any) -> None:
    """A fresh samples directory unless one was handed in (the launcher shares its own with the workers)."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        made = tempfile.mkdtemp(prefix="siege-metrics-")
        _made_metrics_dir.append(made)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = made


def when_ready(server: Any) -> None:
    """SIEGE_METRICS_BIND=host:port: the same metrics on a listener of the master's, apart from the API."""
    bind = os.environ.get("SIEGE_METRICS_BIND")
    if bind:
        from service.metrics import queue_depth_from_env
        from telemetry.exposition import serve

        serve(bind, [queue_depth_from_env()])


def post_worker_init(worker: Any) -> None:
    """On SIGTERM a worker takes no more requests and waits up to graceful_timeout for those in flight; an
    open stream never ends on its own, so the process's hubs end them at once (clients reconnect with
    Last-Event-ID to another process) and waits answer 202: a restart takes seconds, not the whole timeout."""
    import signal
    import threading

    from service.http import gunicorn_errors
    from telemetry import gc_pauses

    # the app is loaded: what it built lives as long as the worker, out of the collector's walk
    gc_pauses.settle("api")
    gunicorn_errors.install()  # gunicorn's own 400, 414 and 431 are problem+json, not its HTML page
    stopping = signal.getsignal(signal.SIGTERM)

    def stop(signum: int, frame: Any) -> None:
        from service.streams.hub import close_all

        # not in the handler itself: closing takes the hubs' locks, which a thread may hold right now
        threading.Thread(target=close_all, name="siege-hub-close", daemon=True).start()
        if callable(stopping):
            stopping(signum, frame)

    signal.signal(signal.SIGTERM, stop)


def child_exit(server: Any, worker: Any) -> None:
    from telemetry.exposition import process_dead

    process_dead(worker.pid)


def on_exit(server: Any) -> None:
    for made in _made_metrics_dir:
        shutil.rmtree(made, ignore_errors=True)
