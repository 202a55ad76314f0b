"""Readiness checks: can this process reach the event store and the queue Redis right now?"""

from __future__ import annotations

import logging

from eventstore.errors import UnknownBattle
from service.deps import Services
from service.http.problems import STORE_RETRY_AFTER_S, Problem

PROBE_BATTLE = "readyz-probe"  # never created: looking it up is a read that touches the store
DEPENDENCIES = {"store": "the event store", "queue": "the queue Redis"}
log = logging.getLogger(__name__)


def probe(deps: Services) -> dict[str, str]:
    return {"store": _store(deps), "queue": _queue(deps)}


def not_ready(checks: dict[str, str], down: list[str]) -> Problem:
    """A 503 problem naming what does not answer; a load balancer asks again after Retry-After."""
    detail = "Not answering: " + ", ".join(DEPENDENCIES[name] for name in down) + "."
    return Problem(
        503,
        "not-ready",
        "A dependency does not answer",
        detail,
        headers={"Retry-After": str(STORE_RETRY_AFTER_S)},
        checks=checks,
    )


def _store(deps: Services) -> str:
    try:
        deps.store.head(PROBE_BATTLE)
    except UnknownBattle:
        return "ok"
    except Exception as error:  # any failure to answer means not ready; the reason goes to the log
        log.warning("event store not ready: %s", error)
        return "unavailable"
    return "ok"


def _queue(deps: Services) -> str:
    try:
        deps.queue_redis.ping()
    except Exception as error:
        log.warning("queue Redis not ready: %s", error)
        return "unavailable"
    return "ok"
