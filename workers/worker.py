"""`python -m workers.worker QUEUE... [--url URL]`: an RQ SimpleWorker that rides out a Redis outage.

RQ's own work loop ends on a lost connection (and `rq worker` then exits), so a 3 s outage would cost
every worker its process. Here a loop that ends without a stop request starts a fresh worker after a
backoff, until Redis answers again; SIGTERM or Ctrl-C still stop it (RQ's warm shutdown)."""

from __future__ import annotations

import argparse
import importlib
import logging
import signal
import threading
import time
from types import FrameType

from redis.exceptions import RedisError
from rq.worker import SimpleWorker

from eventstore.config import connect
from eventstore.queues import SERIALIZER
from telemetry import gc_pauses
from telemetry.exposition import serve as serve_metrics
from telemetry.logs import log_json
from workers import deps, rules_build
from workers.retry import Backoff

STEADY_S = 60.0  # a worker that ran this long before losing Redis starts the backoff over
RECONNECT_MAX_S = 5.0  # longest wait between two tries while Redis is away: recovery is noticed this soon
log = logging.getLogger("siege.worker")


class SteadyWorker(SimpleWorker):
    """SimpleWorker runs jobs in-process: ~3x the job rate of the forking Worker, and a projection job is
    pure folding, which needs no fork to stay isolated. This one remembers a stop request, so a loop that
    ended for any other reason is told apart from one that was asked to end."""

    asked_to_stop = False
    max_connection_wait_time = RECONNECT_MAX_S  # RQ's own retry while idle (its default: 60 s)

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        self.asked_to_stop = True
        super().request_stop(signum, frame)  # type: ignore[no-untyped-call]


def serve(queues: list[str], url: str, worker_ttl: int, stop: threading.Event) -> int:
    backoff = Backoff(max_s=RECONNECT_MAX_S)
    while not stop.is_set():
        started = time.monotonic()
        if _work_until_lost(queues, url, worker_ttl):
            return 0
        _stop_on_signals(stop)  # RQ's handlers are gone with its loop; ours cover the wait
        if time.monotonic() - started > STEADY_S:
            backoff.reset()
        wait_s = backoff.next()
        log.warning("the worker lost Redis; starting a fresh one in %.1fs", wait_s)
        stop.wait(wait_s)
    return 0


def _work_until_lost(queues: list[str], url: str, worker_ttl: int) -> bool:
    """Run one RQ worker until its loop ends; True when it ended because it was asked to stop."""
    try:
        worker = SteadyWorker(queues, connection=connect(url), serializer=SERIALIZER, worker_ttl=worker_ttl)
        worker.work(logging_level="INFO")  # installs RQ's handlers: SIGTERM is a warm shutdown
    except (RedisError, OSError) as error:  # raised outside RQ's loop: naming or registering the worker
        log.warning("the worker could not run: %s", error)
        return False
    return worker.asked_to_stop


def _stop_on_signals(stop: threading.Event) -> None:
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.worker", description=__doc__)
    parser.add_argument("queues", nargs="+", help="queue names, in the order they are taken")
    parser.add_argument("--url", help="the queue Redis (default: QUEUE_REDIS_URL, else REDIS_URL)")
    parser.add_argument("--worker-ttl", type=int, default=60, help="RQ heartbeat TTL in seconds")
    parser.add_argument(
        "--metrics-bind",
        metavar="HOST:PORT",
        help="serve this worker's Prometheus metrics there (a worker the API's /metrics does not see)",
    )
    args = parser.parse_args(argv)
    log_json()
    rules_build.choose()  # before the first job imports rules
    if not deps.configured():
        return 2
    if args.metrics_bind:
        serve_metrics(args.metrics_bind)
    importlib.import_module("workers.jobs")  # every job's modules, rules/ among them, before they are frozen
    gc_pauses.settle("worker")
    stop = threading.Event()
    _stop_on_signals(stop)
    return serve(args.queues, args.url or str(deps.config().queue_redis_url), args.worker_ttl, stop)


if __name__ == "__main__":
    raise SystemExit(main())
