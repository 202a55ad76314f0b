"""SIEGE_STORE_CLUSTER=1 without a queue Redis of its own stops every process at start, saying why."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from launcher import commands

CLUSTER_WITHOUT_QUEUE = {"SIEGE_STORE_CLUSTER": "1", "REDIS_URL": "redis://127.0.0.1:1/0"}


@pytest.mark.parametrize(
    "argv",
    [
        [sys.executable, "-m", "launcher"],
        [sys.executable, *commands.worker("redis://127.0.0.1:1/0")[1:]],
        [sys.executable, *commands.reconciler()[1:]],
    ],
    ids=["make run", "a worker", "the reconciler"],
)
def test_a_cluster_store_with_the_queue_on_it_stops_at_start(argv: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k != "QUEUE_REDIS_URL"} | CLUSTER_WITHOUT_QUEUE
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "QUEUE_REDIS_URL" in done.stderr and "Traceback" not in done.stderr
