"""Replays over HTTP against real gunicorn and RQ processes: a worker takes the job from the replay queue,
and `GET .../replays/{job}` follows it to its result."""

from __future__ import annotations

from typing import Any

import pytest

from eventstore.queues import REPLAY
from launcher import commands
from tests.fixtures.processes import LiveService
from tests.processes.client import Reply, call, create_battle, eventually, send
from tests.workers.logs import FILLER

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]
JOB_TIMEOUT_S = 60


def test_workers_listen_on_the_queue_the_api_puts_replays_on() -> None:
    assert REPLAY.queue in commands.worker("redis://127.0.0.1:6379/0")


def played(live: LiveService, commands_sent: int = 12) -> tuple[str, dict[str, str]]:
    battle_id, token = create_battle(live)
    for _ in range(commands_sent - 1):
        assert send(live, battle_id, token, {"type": FILLER}).status == 202
    assert send(live, battle_id, token, {"type": FILLER}, wait_s=10).status == 200
    return battle_id, {"Authorization": f"Bearer {token}"}


def replayed(live: LiveService, battle_id: str, gm: dict[str, str], mode: str) -> dict[str, Any]:
    """Start a replay and follow its Location until the job is done; its final view."""
    started = call("POST", f"{live.base_url}/battles/{battle_id}/replays", {"mode": mode}, gm)
    assert started.status == 202, started.body
    latest: list[Reply] = []

    def done() -> bool:
        latest[:] = [call("GET", live.base_url + started.headers["Location"], headers=gm)]
        return latest[0].status == 200 and latest[0].body["status"] in ("finished", "failed")

    eventually(done, JOB_TIMEOUT_S, f"the {mode} job to finish")
    view: dict[str, Any] = latest[0].body
    assert view["status"] == "finished", (view, live.log_tail())
    return view


def test_a_verify_replay_finishes_and_finds_the_projection_sound(live_service: LiveService) -> None:
    battle_id, gm = played(live_service)
    store = live_service.store()
    eventually(lambda: _projected(live_service, battle_id), JOB_TIMEOUT_S, "the projection to reach the head")

    view = replayed(live_service, battle_id, gm, "verify")

    assert view["mode"] == "verify" and view["error"] is None
    assert view["result"]["ok"] is True
    assert view["result"]["projected_version"] == store.head(battle_id).version


def test_a_rebuild_replay_leaves_the_state_as_it_was(live_service: LiveService) -> None:
    battle_id, gm = played(live_service)
    eventually(lambda: _projected(live_service, battle_id), JOB_TIMEOUT_S, "the projection to reach the head")
    before = call("GET", f"{live_service.base_url}/battles/{battle_id}/state", headers=gm)

    view = replayed(live_service, battle_id, gm, "rebuild")
    after = call("GET", f"{live_service.base_url}/battles/{battle_id}/state", headers=gm)

    assert view["result"]["to_version"] == before.body["version"]
    assert (after.status, after.body) == (200, before.body)
    audit = call("GET", f"{live_service.base_url}/battles/{battle_id}/audit", headers=gm)
    assert audit.body["ok"] is True, audit.body


def _projected(live: LiveService, battle_id: str) -> bool:
    store = live.store()
    projection = store.projection(battle_id)
    return projection is not None and projection.version == store.head(battle_id).version
