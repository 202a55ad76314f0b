"""The store unavailable for 3 s under a running service: workers and the reconciler ride it out (the same
processes before and after), the API answers 503 with Retry-After meanwhile, and then everything recovers."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from eventstore.embedded import EmbeddedServer
from launcher.probes import free_port
from tests.faults.traffic import Tally, Writers, bearer, check_clean, create_battles, request
from tests.fixtures.launched import RECONCILER, WORKER, launched
from tests.processes.client import eventually
from tests.workers.logs import FILLER

pytestmark = [pytest.mark.faults]
OUTAGE_S = 3.0


@dataclass(frozen=True)
class Outage:
    processes_before: set[int]
    processes_after: set[int]
    during: Tally  # what the API answered while the store was down
    recovered_s: float  # from the store's return to the first command acknowledged again
    after: Tally
    checked: int  # battles converged and audited after the outage


@pytest.fixture(scope="module")
def outage(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Outage]:
    data, port = tmp_path_factory.mktemp("outage-store"), free_port()
    server = EmbeddedServer(data, port=port, durability="durable").start()
    env = {"REDIS_URL": server.url, "QUEUE_REDIS_URL": server.url}
    try:
        with launched(tmp_path_factory.mktemp("outage"), env, embedded=False) as run:
            battles = create_battles(run.base_url, run.api_key, 4)
            before = run.pids(WORKER) | run.pids(RECONCILER)
            server.stop()
            during = _knock(run.base_url, battles, OUTAGE_S)
            server = EmbeddedServer(data, port=port, durability="durable").start()
            back = time.monotonic()
            eventually(lambda: _acknowledged(run.base_url, battles[0]), 30, "a command acknowledged again")
            recovered_s = time.monotonic() - back
            with Writers(run.base_url, battles, threads=4, per_thread=10) as writers:
                after = writers.finish()
            checked = check_clean(run.base_url, run.store(), battles)
            yield Outage(before, run.pids(WORKER) | run.pids(RECONCILER), during, recovered_s, after, checked)
    finally:
        server.stop()


def _knock(base_url: str, battles: list[tuple[str, str]], seconds: float) -> Tally:
    """Commands and reads, one after another, for `seconds` of outage."""
    tally = Tally()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for battle_id, token in battles:
            tally.sent += 1
            path = f"/battles/{battle_id}/commands"
            tally.answered(request(base_url, "POST", path, {"type": FILLER}, bearer(token)), battle_id)
            tally.answered(
                request(base_url, "GET", f"/battles/{battle_id}", headers=bearer(token)), battle_id
            )
    return tally


def _acknowledged(base_url: str, battle: tuple[str, str]) -> bool:
    answer = request(base_url, "POST", f"/battles/{battle[0]}/commands", {"type": FILLER}, bearer(battle[1]))
    return answer.status == 202


def test_workers_and_the_reconciler_ride_out_a_3_s_store_outage_and_the_service_recovers(
    outage: Outage,
) -> None:
    print(
        f"\n[store outage {OUTAGE_S:.0f}s] answers during it={dict(outage.during.statuses)}; "
        f"acknowledged again {outage.recovered_s:.1f}s after; then sent={outage.after.sent} "
        f"acknowledged={len(outage.after.acknowledged)}; processes kept={len(outage.processes_after)}"
    )
    assert outage.processes_before == outage.processes_after and len(outage.processes_before) == 3
    assert outage.recovered_s < 30
    assert outage.after.sent == len(outage.after.acknowledged) == 40
    assert outage.checked == 4


def test_the_api_answers_503_with_retry_after_while_the_store_is_down(outage: Outage) -> None:
    statuses = outage.during.statuses
    missing = outage.during.retry_after_missing
    print(f"\n[store outage] answers={dict(statuses)} 503s without Retry-After={missing}")

    assert statuses[503] > 0 and set(statuses) == {503}
    assert outage.during.retry_after_missing == 0
