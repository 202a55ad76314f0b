"""The command line of every process the service runs, defined once for `make run`, the tests and compose."""

from __future__ import annotations

from eventstore.config import Durability
from eventstore.queues import WEBHOOK_QUEUES, WORKER_QUEUES

GUNICORN_CONF = "python:service.gunicorn_conf"  # workers, threads, timeouts, no shared control socket
RECONCILE_EVERY_S = 1  # with the fold lock's 1 s, a battle whose folder died is folded again within 2 s
DASHBOARD_PORT = 9181  # rq-dashboard's own default
WORKER_METRICS_PORT = 9101  # where a worker container serves its metrics (compose)
WORKER_TTL_S = 60  # heartbeat period + 15 s: a dead worker (and its job) is noticed within a minute


def store(data_dir: str, port: int, *, durability: Durability = "durable") -> list[str]:
    """The embedded Valkey server (AOF on; `durable` fsyncs every write), used when no REDIS_URL is given,
    requiring the password kept in its data directory. A restart runs the same command: the same port,
    data and password, the AOF replayed."""
    return [
        "python", "-m", "eventstore.embedded",
        "--dir", data_dir, "--port", str(port), "--durability", durability, "--password",
    ]  # fmt: skip


def api(bind: str) -> list[str]:
    return ["gunicorn", "-c", GUNICORN_CONF, "-b", bind, "service.wsgi:app"]


def worker(
    queue_url: str | None = None, *, metrics_bind: str | None = None, queues: tuple[str, ...] = WORKER_QUEUES
) -> list[str]:
    """An RQ SimpleWorker on the queues (workers/worker.py): unlike `rq worker`, it outlasts Redis outages.
    Without `queue_url` it reads QUEUE_REDIS_URL (else REDIS_URL) from its environment, so a URL holding a
    password is never on a command line, which every local user can read in /proc.
    `metrics_bind`: it serves its own metrics there (a container of its own: the API's /metrics cannot see it;
    `make run` shares one samples directory instead)."""
    serving = ["--metrics-bind", metrics_bind] if metrics_bind else []
    naming = ["--url", queue_url] if queue_url else []
    return ["python", "-m", "workers.worker", *queues, "--worker-ttl", str(WORKER_TTL_S), *naming, *serving]


def webhook_worker(queue_url: str | None = None, *, metrics_bind: str | None = None) -> list[str]:
    """A worker on the webhook queue alone: a receiver that takes 10 s to answer delays other deliveries,
    never a fold."""
    return worker(queue_url, metrics_bind=metrics_bind, queues=WEBHOOK_QUEUES)


def reconciler() -> list[str]:
    return ["python", "-m", "workers.reconcile", "--every", str(RECONCILE_EVERY_S)]


def dashboard(queue_url: str, bind: str = "0.0.0.0", port: int = DASHBOARD_PORT) -> list[str]:
    """The optional rq-dashboard (compose profile `dashboard`): the queues, jobs and workers at a glance."""
    return ["rq-dashboard", "--bind", bind, "--port", str(port), "--redis-url", queue_url]
