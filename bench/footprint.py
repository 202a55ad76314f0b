"""What ingest costs beyond throughput: one hot battle commanded with its GM token, and the Redis bytes
each command leaves behind, with and without an Idempotency-Key."""

from __future__ import annotations

import http.client
import json
import time
import uuid
from urllib.parse import urlsplit

from bench.load import Target, throughput
from bench.measures import COMMAND, Row, create_battles
from bench.stack import Bench
from eventstore import keys
from eventstore.config import connect
from eventstore.redis_store import RedisEventStore

CATCH_UP_S = 60.0


def one_battle(bench: Bench, seconds: float, baseline_rate: float) -> Row:
    """Every request on one battle, with its GM token: one log, one hash chain, one fold lock."""
    ((battle_id, token),) = create_battles(bench, 1)
    run = throughput(bench.service_url, [Target(f"/battles/{battle_id}/commands", token)], COMMAND, seconds)
    ratio = run.rate / baseline_rate if baseline_rate else float("nan")
    return Row(
        f"ingest: POST commands to one battle with its GM token, {run.tool}",
        f"{run.rate:,.0f} req/s ({run.errors} non-2xx), {ratio:.2f} of the baseline",
        "≥ 0.8",
    )


def bytes_per_command(bench: Bench, commands: int) -> list[Row]:
    """Two fresh battles get `commands` commands each over HTTP, one keyed, one not; once projected, every
    key of each battle is weighed with MEMORY USAGE (exact: SAMPLES 0)."""
    rows = []
    for keyed in (False, True):
        ((battle_id, token),) = create_battles(bench, 1)
        before = _weigh(bench, battle_id)
        _send(bench, battle_id, token, commands, keyed)
        _caught_up(bench, battle_id)
        after = _weigh(bench, battle_id)
        total = sum(after.values()) - sum(before.values())
        idem = after.get(keys.idem(battle_id), 0) + after.get(keys.idem_expiry(battle_id), 0)
        what = "with an Idempotency-Key" if keyed else "without a key"
        share = f", of which idempotency records {idem / commands:,.0f} B ({idem / total:.0%})"
        rows.append(
            Row(
                f"Redis bytes per command {what} ({commands:,} commands: log, outcomes, state, snapshots)",
                f"{total / commands:,.0f} B{share if keyed else ''}",
            )
        )
    return rows


def _send(bench: Bench, battle_id: str, token: str, commands: int, keyed: bool) -> None:
    url = urlsplit(bench.service_url)
    connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=30)
    body = json.dumps(COMMAND)
    for _ in range(commands):
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        if keyed:
            headers["Idempotency-Key"] = str(uuid.uuid4())
        connection.request("POST", f"/battles/{battle_id}/commands", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        if response.status != 202:
            raise RuntimeError(f"POST commands answered {response.status}")


def _caught_up(bench: Bench, battle_id: str) -> None:
    store = RedisEventStore(connect(bench.redis_url))
    deadline = time.monotonic() + CATCH_UP_S
    while time.monotonic() < deadline:
        projection = store.projection(battle_id)
        if projection and projection.version == store.head(battle_id).version:
            return
        time.sleep(0.05)
    raise RuntimeError(f"battle {battle_id} not projected after {CATCH_UP_S:.0f} s")


def _weigh(bench: Bench, battle_id: str) -> dict[str, int]:
    client = connect(bench.redis_url, decode_responses=True)
    found = client.scan_iter(match=f"siege:{{{battle_id}}}:*", count=1000)
    return {key: int(client.memory_usage(key, samples=0) or 0) for key in found}
