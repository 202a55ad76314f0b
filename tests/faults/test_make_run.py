"""`make run` under fire: seven worker SIGKILLs and one SIGKILL of the embedded store while commands flow
leave the service serving again by itself within 30 s, with nothing acknowledged missing and every
projection converged and auditing clean; meanwhile no 500, only 503 with Retry-After."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from launcher.probes import answers_200
from tests.faults.traffic import Tally, Writers, bearer, check_clean, create_battles, request
from tests.fixtures.launched import VALKEY, WORKER, launched
from tests.processes.client import eventually
from tests.workers.logs import FILLER

pytestmark = [pytest.mark.faults]
WORKER_KILLS = 7


@dataclass(frozen=True)
class Siege:
    tally: Tally
    present: int
    serving_again_s: float  # from the store's SIGKILL to /readyz 200 and a command acknowledged
    checked: int


@pytest.fixture(scope="module")
def siege(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Siege]:
    with launched(tmp_path_factory.mktemp("make-run")) as run:  # the defaults of `make run`: durable
        battles = create_battles(run.base_url, run.api_key, 8)
        with Writers(run.base_url, battles, threads=8, idempotent=True) as writers:
            for _ in range(WORKER_KILLS):
                time.sleep(0.7)
                run.kill_one(lambda: run.pids(WORKER))
            run.kill_one(lambda: run.pids(VALKEY))
            killed_s = time.monotonic()
            eventually(lambda: _serving(run.base_url, battles[0]), 30, "the service to serve again")
            serving_again_s = time.monotonic() - killed_s
            time.sleep(2.0)
        tally = writers.tally
        store = run.store()
        present = tally.report("make run: 7 worker SIGKILLs + 1 store SIGKILL", store)
        yield Siege(tally, present, serving_again_s, check_clean(run.base_url, store, battles))


def _serving(base_url: str, battle: tuple[str, str]) -> bool:
    if not answers_200(f"{base_url}/readyz"):
        return False
    answer = request(base_url, "POST", f"/battles/{battle[0]}/commands", {"type": FILLER}, bearer(battle[1]))
    return answer.status == 202


def test_the_service_serves_again_by_itself_within_30_s_with_nothing_acknowledged_missing(
    siege: Siege,
) -> None:
    print(f"\n[make run] serving again {siege.serving_again_s:.1f}s after the store's SIGKILL")

    assert siege.serving_again_s <= 30
    assert siege.tally.sent == len(siege.tally.acknowledged) == siege.present  # idempotent resends: all in
    assert siege.checked == 8


def test_no_500_was_answered_meanwhile_only_503_with_retry_after(siege: Siege) -> None:
    statuses = siege.tally.statuses
    print(f"\n[make run] answers={dict(statuses)} 503s without Retry-After={siege.tally.retry_after_missing}")

    assert statuses[500] == 0
    assert siege.tally.retry_after_missing == 0
