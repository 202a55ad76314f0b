"""Every job the API enqueues by name is an entry point of workers.jobs, and a worker listens on its queue."""

from __future__ import annotations

import importlib

import pytest

from eventstore.queues import (
    DELIVER_WEBHOOK,
    PROJECT_PENDING,
    REPLAY,
    SEND_WEBHOOK,
    WEBHOOK_QUEUES,
    WORKER_QUEUES,
    JobSpec,
)
from launcher import commands


@pytest.mark.parametrize(
    "spec", [PROJECT_PENDING, REPLAY, DELIVER_WEBHOOK, SEND_WEBHOOK], ids=lambda spec: spec.path
)
def test_each_job_path_names_a_function_of_workers_jobs(spec: JobSpec) -> None:
    module, _, name = spec.path.rpartition(".")
    assert module == "workers.jobs"
    assert callable(getattr(importlib.import_module(module), name))


@pytest.mark.parametrize("spec", [PROJECT_PENDING, REPLAY], ids=lambda spec: spec.queue)
def test_each_job_queue_has_workers_listening(spec: JobSpec) -> None:
    assert spec.queue in WORKER_QUEUES
    assert spec.queue in commands.worker("redis://127.0.0.1:6379/0")


@pytest.mark.parametrize("spec", [DELIVER_WEBHOOK, SEND_WEBHOOK], ids=lambda spec: spec.path)
def test_each_webhook_job_goes_to_the_webhook_worker(spec: JobSpec) -> None:
    assert spec.queue in WEBHOOK_QUEUES and spec.queue not in WORKER_QUEUES  # a receiver never slows a fold
    assert spec.queue in commands.webhook_worker("redis://127.0.0.1:6379/0")


def test_workers_take_projection_work_before_replays() -> None:
    assert WORKER_QUEUES.index(PROJECT_PENDING.queue) < WORKER_QUEUES.index(REPLAY.queue)


def test_jobs_are_enqueued_with_their_timeouts_and_ttls() -> None:
    assert REPLAY.options() == {"job_timeout": 1800, "result_ttl": 86400, "failure_ttl": 86400}
    assert PROJECT_PENDING.options() == {"job_timeout": 180, "result_ttl": 60}
