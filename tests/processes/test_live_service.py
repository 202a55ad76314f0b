"""Commands through real gunicorn and RQ processes come back as outcomes and converge to the log head."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from rq.job import Job, JobStatus

from eventstore.config import connect
from eventstore.queues import REPLAY
from tests.fixtures.processes import LiveService
from tests.processes.client import create_battle, eventually, send
from tests.workers.logs import FILLER, fresh_state, projected_version
from workers.queue import projection_queue

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]


def test_a_command_with_prefer_wait_answers_its_outcome(live_service: LiveService) -> None:
    battle_id, token = create_battle(live_service)

    reply = send(live_service, battle_id, token, {"type": FILLER}, wait_s=5)

    assert reply.status == 200, reply.body
    assert (reply.body["version"], reply.body["type"], reply.body["status"]) == (2, FILLER, "applied")


def test_many_commands_on_several_battles_converge_to_their_log_heads(live_service: LiveService) -> None:
    battles = [create_battle(live_service) for _ in range(4)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        replies = list(pool.map(lambda b: send(live_service, b[0], b[1], {"type": FILLER}), battles * 25))
    store = live_service.store()

    assert {r.status for r in replies} == {202}
    eventually(
        lambda: all(projected_version(store, b) == store.head(b).version for b, _ in battles),
        timeout_s=30,
        what="every projection to reach its log head",
    )
    assert [store.head(b).version for b, _ in battles] == [26] * 4
    for battle_id, _ in battles:
        saved = store.projection(battle_id)
        assert saved is not None and saved.state == fresh_state(store, battle_id)


def test_a_replay_job_rebuilds_the_live_projection_byte_for_byte(live_service: LiveService) -> None:
    battle_id, token = create_battle(live_service)
    for _ in range(29):
        send(live_service, battle_id, token, {"type": FILLER})
    assert send(live_service, battle_id, token, {"type": FILLER}, wait_s=10).status == 200
    store = live_service.store()
    live = (store.projection(battle_id), store.outcomes(battle_id, limit=100))
    queue = projection_queue(connect(live_service.redis_url))

    rebuilt = queue.enqueue(REPLAY.path, battle_id, "rebuild")
    finished(rebuilt)
    verified = queue.enqueue(REPLAY.path, battle_id, "verify")
    finished(verified)

    assert (store.projection(battle_id), store.outcomes(battle_id, limit=100)) == live
    assert verified.return_value() == {
        "battle_id": battle_id,
        "ok": True,
        "projected_version": 31,
        "first_difference": None,
        "what": None,
    }


def finished(job: Job) -> None:
    eventually(lambda: job.get_status(refresh=True) in (JobStatus.FINISHED, JobStatus.FAILED), 30, "the job")
    assert job.get_status() == JobStatus.FINISHED, job.latest_result()


def test_the_worker_healthcheck_passes_while_a_live_worker_runs(live_service: LiveService) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "workers.health"], env=live_service.env, capture_output=True, timeout=30
    )

    assert done.returncode == 0, done.stderr
