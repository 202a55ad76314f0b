"""Container healthcheck of an RQ worker: a worker on this host is registered and its heartbeat is fresh."""

from __future__ import annotations

import socket
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

from redis import Redis
from rq import Worker

from workers import deps

STALE_AFTER = timedelta(seconds=90)  # an idle worker beats every worker_ttl - 15 s (60 s in our command)


def healthy_here(connection: Redis[Any], hostname: str | None = None) -> bool:
    hostname = hostname or socket.gethostname()
    now = datetime.now(UTC)
    return any(
        worker.hostname == hostname and worker.last_heartbeat and now - worker.last_heartbeat < STALE_AFTER
        for worker in Worker.all(connection=connection)
    )


def main() -> int:
    return 0 if healthy_here(deps.queue().connection) else 1


if __name__ == "__main__":
    sys.exit(main())
