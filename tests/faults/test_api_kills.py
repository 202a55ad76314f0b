"""gunicorn workers SIGKILLed mid-request while clients resend with their Idempotency-Key: every command
is appended exactly once."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from tests.faults.traffic import Writers, create_battles
from tests.fixtures.launched import launched

pytestmark = [pytest.mark.faults]
KILLS = 5


def test_a_gunicorn_worker_killed_mid_request_leaves_each_idempotent_command_appended_exactly_once(
    tmp_path: Path,
) -> None:
    # no RQ worker: every `Prefer: wait=1` request appends, then waits its whole second, so a kill lands
    # between the append and the answer, the case a resend must not append again
    with launched(tmp_path, {"SIEGE_WORKERS": "0", "SIEGE_MAX_WAIT_S": "1"}) as run:
        battles = create_battles(run.base_url, run.api_key, 4)
        with Writers(run.base_url, battles, threads=4, per_thread=8, idempotent=True, wait_s=1) as writers:
            for _ in range(KILLS):
                time.sleep(1.5)
                run.kill_one(run.gunicorn_workers)
            tally = writers.finish(timeout_s=180)
        store = run.store()
        logged = Counter(
            entry.idempotency_key
            for b, _ in battles
            for entry in store.iter_entries(b)
            if entry.idempotency_key
        )
        present = tally.report("gunicorn SIGKILLs, Idempotency-Key resends", store)
        once = sum(1 for key in writers.keys if logged[key] == 1)
        duplicates, resends = sum(n - 1 for n in logged.values()), sum(tally.statuses.values()) - tally.sent
        print(
            f"gunicorn SIGKILLs={KILLS} keys={len(writers.keys)} appended_once={once} "
            f"duplicates={duplicates} resends={resends}"
        )

        assert tally.sent == len(writers.keys) == len(tally.acknowledged) == present == once
        assert set(logged) == set(writers.keys) and max(logged.values()) == 1
        assert sum(tally.statuses.values()) > tally.sent  # some requests were cut and sent again
