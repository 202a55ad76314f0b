"""The reconciler: re-schedule every battle whose projection lags its log, so a lost job never strands one."""

from __future__ import annotations

import argparse
import logging
import signal
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass

from redis.exceptions import RedisError
from rq import Queue

from eventstore.roles import Deliveries, Folds, Log, Schedule, Webhooks
from telemetry.logs import log_json
from workers import deps
from workers.queue import enqueue_projection
from workers.retry import Backoff
from workers.webhook_schedule import reconcile_webhooks

PAGE = 500  # battles whose heads and projected versions are read in one round trip
OUTAGE_MAX_S = 5.0  # the longest wait between passes while Redis is away: recovery is noticed that soon
log = logging.getLogger("siege.reconcile")


@dataclass(frozen=True, slots=True, kw_only=True)
class Reconciled:
    battles: int
    lagging: list[str]
    enqueued: bool
    webhooks: int = 0  # delivery jobs enqueued for webhooks that lag or whose retry is due


def reconcile(
    store: Log,
    folds: Folds,
    schedule: Schedule,
    webhooks: Webhooks,
    deliveries: Deliveries,
    queue: Queue,
    enqueue_webhook: Callable[[str, str], None] | None = None,
) -> Reconciled:
    """One pass: mark lagging battles pending and make sure a projection job will see them; then a
    delivery job for each webhook that lags its battle's projection and is due (`enqueue_webhook`)."""
    battles = list(store.battle_ids())
    # a page of battles per round trip: with a thousand battles, a round trip each was a core's tenth
    lagging = [
        b for first in range(0, len(battles), PAGE) for b in folds.lagging(battles[first : first + PAGE])
    ]
    asked = schedule.mark_pending_again(lagging)
    # a set flag with no job behind it (a job lost before it ran) would strand the pending set: when no
    # job is waiting, enqueue one even if the flag says a job was scheduled
    enqueued = bool(lagging) and (asked or queue.count == 0)
    if enqueued:
        enqueue_projection(queue)
    woken = 0
    if enqueue_webhook is not None:
        woken = reconcile_webhooks(store, webhooks, deliveries, enqueue_webhook)
    return Reconciled(battles=len(battles), lagging=lagging, enqueued=enqueued, webhooks=woken)


def run_forever(every_s: float, stop: threading.Event) -> None:
    """A pass every `every_s`; while Redis is away, passes back off (up to OUTAGE_MAX_S) and the loop
    never ends: it is what repairs the aftermath of the outage."""
    backoff = Backoff(first_s=every_s, max_s=max(every_s, OUTAGE_MAX_S))
    while not stop.is_set():
        wait_s = every_s
        try:
            done = _pass()
            if done.lagging:
                log.info("%d of %d battles lag; enqueued: %s", len(done.lagging), done.battles, done.enqueued)
            backoff.reset()
        except (RedisError, OSError) as error:
            wait_s = backoff.next()
            log.warning("reconcile pass failed (%s); next try in %.1fs", error, wait_s)
        except Exception:  # a bug in one pass must not end the loop either
            log.exception("reconcile pass failed")
        stop.wait(wait_s)


def _pass() -> Reconciled:
    """One pass over this process's store (the one backend in each role it reads) and job queue."""
    store = deps.store()
    return reconcile(store, store, store, store, store, deps.queue(), deps.enqueue_webhook)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.reconcile", description=__doc__)
    parser.add_argument("--every", type=float, default=1.0, help="seconds between passes (default 1)")
    parser.add_argument("--once", action="store_true", help="one pass, print it, exit")
    args = parser.parse_args(argv)
    log_json()
    if not deps.configured():
        return 2
    if args.once:
        print(asdict(_pass()), flush=True)
        return 0
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    run_forever(args.every, stop)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
