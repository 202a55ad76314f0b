"""Projection lag under load: probe commands sent beside the load generator, timed from the API's 202 to
the moment their outcome is readable."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from urllib.parse import urlsplit

from eventstore.config import connect
from eventstore.redis_store import RedisEventStore

PROBE_PERIOD_S = 0.02  # 50 probes/s: a few percent of the load, enough for a p99
OUTCOME_TIMEOUT_S = 30.0


class LagProbe:
    def __init__(self, base_url: str, redis_url: str, battles: Sequence[tuple[str, str]]) -> None:
        self.url = urlsplit(base_url)
        self.store = RedisEventStore(connect(redis_url, max_connections=64))
        self.battles = battles
        self.lags_ms: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)

    def __enter__(self) -> LagProbe:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        connection = http.client.HTTPConnection(self.url.hostname or "", self.url.port, timeout=30)
        rng = random.Random(11)
        waits: list[Future[float]] = []
        with ThreadPoolExecutor(max_workers=48) as pool:
            while not self._stop.wait(PROBE_PERIOD_S):
                battle_id, token = rng.choice(self.battles)
                version = _send(connection, battle_id, token)
                waits.append(pool.submit(self._outcome_after, battle_id, version, time.monotonic()))
            self.lags_ms = [w.result() for w in waits]

    def _outcome_after(self, battle_id: str, version: int, acked: float) -> float:
        found = self.store.wait_outcome(battle_id, version, OUTCOME_TIMEOUT_S)
        return (time.monotonic() - acked) * 1000 if found is not None else float("inf")


def _send(connection: http.client.HTTPConnection, battle_id: str, token: str) -> int:
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    body = json.dumps({"type": "advance_phase"})
    connection.request("POST", f"/battles/{battle_id}/commands", body=body, headers=headers)
    response = connection.getresponse()
    accepted = json.loads(response.read())
    return int(accepted["version"])
