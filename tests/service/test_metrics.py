"""`GET /metrics`: Prometheus text, readable without a battle token, and off or behind a token on demand."""

from __future__ import annotations

import dataclasses
import gc
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask

from service.app import create_app
from service.config import ServiceConfig
from telemetry import gc_pauses
from telemetry.exposition import exposition
from tests.fixtures.app import GmClient
from tests.service.helpers import assert_problem, create_battle, send

ROOT = Path(__file__).resolve().parents[2]


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample in the text format (labels matched as written, in any order)."""
    for line in text.splitlines():
        metric, _, value = line.rpartition(" ")
        if metric.split("{")[0] == name and all(f'{k}="{v}"' in metric for k, v in labels.items()):
            return float(value)
    return 0.0


def app_with(app: Flask, **changes: object) -> GmClient:
    deps = app.extensions["siege"]
    config = dataclasses.replace(deps.config, **changes)
    changed = create_app(config, store=deps.store, queue_redis=deps.queue_redis)
    return GmClient(changed, changed.response_class, use_cookies=False)


def test_metrics_are_public_prometheus_text_with_the_append_latency(client: GmClient) -> None:
    battle_id = create_battle(client)
    before = sample(
        client.get("/metrics").get_data(as_text=True), "siege_append_seconds_count", ruleset="epic"
    )
    send(client, battle_id, {"type": "advance_phase"})

    scraped = client.get("/metrics")

    assert scraped.status_code == 200 and scraped.mimetype == "text/plain"
    text = scraped.get_data(as_text=True)
    assert sample(text, "siege_append_seconds_count", ruleset="epic") == before + 1
    assert re.search(r'^siege_queue_depth\{queue="siege-projection"\} \d', text, re.MULTILINE)
    assert "# TYPE siege_commands_total counter" in text and "# TYPE siege_job_seconds histogram" in text


def test_metrics_can_be_turned_off(app: Flask) -> None:
    assert_problem(app_with(app, metrics="off").get("/metrics"), 404, "not-found")


def test_metrics_can_sit_behind_a_token_of_their_own(app: Flask) -> None:
    guarded = app_with(app, metrics="token:scrape-me")

    assert_problem(guarded.get("/metrics"), 401, "unauthorized")
    assert_problem(guarded.get("/metrics", headers={"Authorization": "Bearer nope"}), 401, "unauthorized")
    assert guarded.get("/metrics", headers={"Authorization": "Bearer scrape-me"}).status_code == 200


def test_scrapes_never_spend_a_rate_limit_budget(app: Flask) -> None:
    limited = app_with(app, rate_limit="2 per minute")
    assert all(limited.get("/metrics").status_code == 200 for _ in range(5))


@pytest.mark.parametrize(("raw", "mode"), [("", "on"), ("OFF", "off"), ("token:s3cret", "token:s3cret")])
def test_siege_metrics_reads_on_off_or_a_token(raw: str, mode: str) -> None:
    assert ServiceConfig.from_env({"SIEGE_METRICS": raw}).metrics == mode


@pytest.mark.parametrize("raw", ["public", "token:", "yes"])
def test_a_mistyped_siege_metrics_stops_the_process_at_start(raw: str) -> None:
    with pytest.raises(ValueError, match="SIEGE_METRICS"):
        ServiceConfig.from_env({"SIEGE_METRICS": raw})


def test_settling_freezes_what_the_process_holds_and_times_later_collections(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SIEGE_GC_FREEZE", "1")
    timed_before = _timed_full_collections()
    gc.disable()  # no collection of the interpreter's own in between: the count below is exact
    pauses = gc_pauses.settle("api")
    try:
        gc.collect()  # a full collection, as the interpreter would start one
        pauses.flush()  # what its thread does every second

        assert pauses.frozen == gc.get_freeze_count() > 10_000  # this process's imports, at the least
        assert _timed_full_collections() == timed_before + 1
    finally:
        pauses.stop()
        gc.enable()
        gc.unfreeze()


def test_with_the_freeze_off_collections_are_still_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIEGE_GC_FREEZE", "0")
    timed_before = _timed_full_collections()
    gc.disable()
    pauses = gc_pauses.settle("api")
    try:
        gc.collect()
        pauses.flush()

        assert pauses.frozen == gc.get_freeze_count() == 0
        assert _timed_full_collections() == timed_before + 1
    finally:
        pauses.stop()
        gc.enable()


def test_a_collection_that_starts_while_a_metric_is_being_recorded_does_not_hang_the_process(
    tmp_path: Path,
) -> None:
    """prometheus-client's multiprocess mode takes one lock for every metric, which a thread cannot take
    twice: a collection started by an allocation under it (a new label's sample) must not record there."""
    script = (
        "import gc\n"
        "from telemetry import gc_pauses\n"
        "from telemetry.exposition import exposition\n"
        "from telemetry.metrics import COMMANDS\n"
        "gc.set_threshold(1, 1, 1)  # a collection of generation 2 at nearly every allocation\n"
        "pauses = gc_pauses.settle('api')\n"
        "for n in range(1000):\n"
        "    COMMANDS.labels(ruleset='epic', type=f't{n}', status='applied').inc()\n"
        "pauses.flush()\n"
        "print(exposition().decode())\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "SIEGE_GC_FREEZE": "1"},
        check=False,
    )

    assert ran.returncode == 0, ran.stderr[-2000:]
    timed = sample(ran.stdout, "siege_gc_pause_seconds_count", process="api", generation="2")
    assert timed >= 1  # the callback ran


def _timed_full_collections() -> float:
    return sample(exposition().decode(), "siege_gc_pause_seconds_count", process="api", generation="2")


def test_a_gc_freeze_setting_other_than_0_or_1_stops_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIEGE_GC_FREEZE", "yes")
    with pytest.raises(ValueError, match="SIEGE_GC_FREEZE must be 0 or 1"):
        gc_pauses.settle("api")
    assert gc.get_freeze_count() == 0
