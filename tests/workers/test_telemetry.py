"""What the workers report: outcomes by ruleset, type and status, the projection lag, job durations, and
one JSON log line per job."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
from prometheus_client import REGISTRY

from eventstore.redis_store import RedisEventStore
from telemetry.logs import JsonFormatter
from tests.eventstore.helpers import appending
from tests.fixtures.redis_server import Backend
from tests.workers.logs import _entry, append, new_battle
from workers import deps, jobs
from workers.projection import project_battle


def count(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def job_lines() -> Iterator[io.StringIO]:
    """What the `siege.job` logger writes, through the formatter the workers' stderr uses."""
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("siege.job")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield written
    logger.removeHandler(handler)


def test_a_fold_counts_applied_and_rejected_commands_by_ruleset_and_type(
    redis_store: RedisEventStore,
) -> None:
    applied = {"ruleset": "epic", "type": "advance_phase", "status": "applied"}
    rejected = {"ruleset": "epic", "type": "climb", "status": "rejected"}
    before = (count("siege_commands_total", **applied), count("siege_commands_total", **rejected))
    lags_before = count("siege_projection_lag_seconds_count")
    battle_id = new_battle(redis_store, commands=2)
    redis_store.append(appending(battle_id, _entry("climb", {"stand_id": "nobody", "section_id": "nowhere"})))

    project_battle(redis_store, redis_store, battle_id)

    assert count("siege_commands_total", **applied) == before[0] + 2
    assert count("siege_commands_total", **rejected) == before[1] + 1
    assert count("siege_projection_lag_seconds_count") == lags_before + 1  # one batch written


def test_a_projection_job_writes_one_json_line_and_its_duration(
    redis_store: RedisEventStore, monkeypatch: pytest.MonkeyPatch, job_lines: io.StringIO
) -> None:
    monkeypatch.setattr(deps, "store", lambda: redis_store)
    monkeypatch.setattr(deps, "requeue_projection", lambda: None)
    battle_id = new_battle(redis_store)
    append(redis_store, battle_id, 3)
    redis_store.mark_pending(battle_id)
    before = count("siege_job_seconds_count", job="project_pending", outcome="ok")

    jobs.project_pending()

    [line] = [json.loads(text) for text in job_lines.getvalue().splitlines()]
    assert line["logger"] == "siege.job" and line["level"] == "INFO"
    assert line["job"]["name"] == "project_pending" and line["job"]["outcome"] == "ok"
    assert line["job"]["battles"] == 1 and line["job"]["entries"] == 4 and line["job"]["ms"] >= 0
    assert count("siege_job_seconds_count", job="project_pending", outcome="ok") == before + 1


def test_a_failed_job_still_writes_its_line_as_an_error(
    monkeypatch: pytest.MonkeyPatch, job_lines: io.StringIO
) -> None:
    def unreachable() -> Backend:
        raise ConnectionError("no store")

    monkeypatch.setattr(deps, "store", unreachable)
    with pytest.raises(ConnectionError):
        jobs.replay_battle("b1", "verify")

    [line] = [json.loads(text) for text in job_lines.getvalue().splitlines()]
    assert line["level"] == "ERROR"
    assert line["job"] | {"ms": 0} == {
        "id": None,
        "name": "replay_verify",
        "outcome": "failed",
        "ms": 0,
        "battle": "b1",
    }
