"""Every RQ entry point, enqueued by the dotted paths eventstore/queues.py names: each one builds its
dependencies from the environment, hands over to the module that does the work, and reports the run as
one JSON log line and in the job-duration histogram."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from rq import get_current_job

from telemetry.metrics import JOB_SECONDS
from workers import deps
from workers.drain import Drained, drain_pending
from workers.replay import Mode, rebuild, verify
from workers.webhook_once import Kind, send_once
from workers.webhooks import Deliverer, deliver

log = logging.getLogger("siege.job")


def project_pending() -> dict[str, object]:
    """Drain every pending battle (see workers.drain)."""
    return _reported("project_pending", lambda: asdict(_drained()))


def _drained() -> Drained:
    store = deps.store()  # the one backend, as the log, its folds and the schedule
    return drain_pending(store, store, store, requeue=deps.requeue_projection, folded=deps.wake_webhooks)


def replay_battle(battle_id: str, mode: Mode = "rebuild") -> dict[str, object]:
    """Behind `POST /battles/{id}/replays`: rebuild the derived keys, or verify them (see workers.replay)."""
    if mode not in ("verify", "rebuild"):
        raise ValueError(f"unknown replay mode {mode!r}")
    replay = verify if mode == "verify" else rebuild
    return _reported(
        f"replay_{mode}", lambda: asdict(replay(deps.store(), deps.store(), battle_id)), battle=battle_id
    )


def deliver_webhook(battle_id: str, webhook_id: str) -> dict[str, object]:
    """Deliver one webhook's outcomes from its cursor on (see workers.webhooks), on its own queue."""
    run = _deliverer()
    return _reported(
        "deliver_webhook",
        lambda: asdict(deliver(run, battle_id, webhook_id)),
        battle=battle_id,
        webhook=webhook_id,
    )


def send_webhook(
    battle_id: str, webhook_id: str, kind: Kind, event_id: str, requested_at: str, version: int | None = None
) -> dict[str, object]:
    """Behind `POST .../webhooks/{wid}/test` and `.../deliveries/{v}/redeliver`: one event, once (see
    workers.webhook_once), on the webhook queue."""
    if kind not in ("test", "redelivery"):
        raise ValueError(f"unknown one-off webhook send {kind!r}")
    run = _deliverer()
    return _reported(
        f"send_webhook_{kind}",
        lambda: asdict(
            send_once(
                run,
                battle_id,
                webhook_id,
                kind=kind,
                event_id=event_id,
                requested_at=requested_at,
                version=version,
            )
        ),
        battle=battle_id,
        webhook=webhook_id,
    )


def _deliverer() -> Deliverer:
    store = deps.store()  # the one backend, as the log, the webhooks and their deliveries
    return Deliverer(
        store=store,
        webhooks=store,
        deliveries=store,
        settings=deps.webhook_settings(),
        requeue=deps.enqueue_webhook,
    )


def _reported(name: str, run: Callable[[], dict[str, Any]], **about: object) -> dict[str, object]:
    """`{"job": {"id", "name", "outcome", "ms", ...the run's counts}}` on one line, whatever happens."""
    started = time.perf_counter()
    outcome, result = "failed", {}
    try:
        result = run()
        outcome = "ok"
        return result
    finally:
        took_s = time.perf_counter() - started
        JOB_SECONDS.labels(name, outcome).observe(took_s)
        current = get_current_job()
        job = {"id": current.id if current else None, "name": name, "outcome": outcome,
               "ms": round(took_s * 1000, 1), **about, **_counts(result)}  # fmt: skip
        log.log(
            logging.INFO if outcome == "ok" else logging.ERROR, "%s %s", name, outcome, extra={"job": job}
        )


def _counts(result: dict[str, Any]) -> dict[str, Any]:
    """The scalar parts of a job's result (battles, entries, ok, ...): a log line, not a report."""
    return {key: value for key, value in result.items() if isinstance(value, int | float | bool | str)}
