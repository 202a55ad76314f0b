"""The embedded store SIGKILLed under `appendfsync always` while commands flow: the launcher restarts it
on the same port from its AOF, and every command acknowledged before the kill is still there."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from launcher.probes import pings
from tests.faults.traffic import Writers, check_clean, create_battles
from tests.fixtures.launched import VALKEY, launched
from tests.processes.client import eventually

pytestmark = [pytest.mark.faults]


def test_a_store_sigkilled_under_appendfsync_always_comes_back_from_its_aof_with_every_acknowledged_command(
    tmp_path: Path,
) -> None:
    with launched(tmp_path, {"SIEGE_DURABILITY": "durable"}) as run:
        store = run.store()
        assert store.client.config_get("appendfsync") == {"appendfsync": "always"}
        battles = create_battles(run.base_url, run.api_key, 8)
        with Writers(run.base_url, battles, threads=8) as writers:
            time.sleep(2.0)
            killed = run.kill_one(lambda: run.pids(VALKEY))
            killed_s = time.monotonic()
            eventually(lambda: bool(run.pids(VALKEY) - {killed}) and pings(run.redis_url), 30, "a new store")
            back_s = time.monotonic() - killed_s
            acknowledged_before = len(writers.tally.acknowledged)
            time.sleep(3.0)
        tally = writers.tally
        present = tally.report("store SIGKILL, appendfsync always", store)
        after = len(tally.acknowledged) - acknowledged_before
        print(f"store back after {back_s:.1f}s; acknowledged after it: {after}")

        assert (
            "store exited with" in run.log_path.read_text() and "store restarted" in run.log_path.read_text()
        )
        assert present == len(tally.acknowledged) > acknowledged_before > 0
        check_clean(run.base_url, store, battles)
