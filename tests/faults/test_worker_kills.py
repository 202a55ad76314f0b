"""Workers SIGKILLed while commands flow: nothing acknowledged goes missing, every projection equals a
fresh replay, and a battle whose folder died is folded again within 2 s."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from eventstore import keys
from tests.faults.traffic import Writers, check_clean, create_battles
from tests.fixtures.launched import RECONCILER, WORKER, launched
from tests.processes.client import eventually
from tests.workers.logs import new_battle, projected_version
from workers.queue import enqueue_projection, projection_queue

pytestmark = [pytest.mark.faults]
KILLS = 6
BACKLOG = 12_000  # entries of one battle: a fold long enough to be caught and killed


def test_worker_sigkills_while_commands_flow_lose_nothing_and_projections_equal_a_replay(
    tmp_path: Path,
) -> None:
    with launched(tmp_path, {"SIEGE_DURABILITY": "fast"}) as run:  # the store is not what is killed here
        battles = create_battles(run.base_url, run.api_key, 8)
        store = run.store()
        with Writers(run.base_url, battles, threads=8) as writers:
            for _ in range(KILLS):
                time.sleep(1.0)
                run.kill_one(lambda: run.pids(WORKER))
            time.sleep(1.0)
        tally = writers.tally
        present = tally.report("worker SIGKILLs", store)
        print(f"worker SIGKILLs={KILLS}", flush=True)

        assert present == len(tally.acknowledged) > 0
        assert tally.statuses.keys() == {202}
        check_clean(run.base_url, store, battles)


def test_a_battle_whose_worker_died_is_folded_again_within_2_s(tmp_path: Path) -> None:
    with launched(tmp_path, {"SIEGE_DURABILITY": "fast"}) as run:  # a fast store appends the backlog sooner
        store = run.store()
        [reconciler] = run.pids(RECONCILER)
        os.kill(reconciler, signal.SIGSTOP)  # nothing folds the backlog while it is written
        battle_id = new_battle(store, commands=BACKLOG)
        head = store.head(battle_id).version
        if store.mark_pending(battle_id):  # as the API does after an append
            enqueue_projection(projection_queue(store.client))  # type: ignore[arg-type]
        holder = _holder(store.client, battle_id)
        os.kill(reconciler, signal.SIGCONT)

        os.kill(holder, signal.SIGKILL)
        killed_at, killed_s = projected_version(store, battle_id), time.monotonic()
        eventually(lambda: projected_version(store, battle_id) > killed_at, 10, "another worker to fold it")
        takeover_s = time.monotonic() - killed_s
        eventually(
            lambda: projected_version(store, battle_id) == head, 60, "the projection to reach the head"
        )
        print(
            f"\n[takeover] head={head} killed_at={killed_at} folded again after {takeover_s:.2f}s", flush=True
        )

        assert killed_at < head
        assert takeover_s <= 2.0


def _holder(client: object, battle_id: str) -> int:
    """The pid of the worker folding the battle, read from its lock (`drain:<host>:<pid>:<run>`)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        owner = client.get(keys.lock(battle_id))  # type: ignore[attr-defined]
        if owner:
            return int(owner.decode().split(":")[2])
        time.sleep(0.002)
    raise AssertionError("no worker took the battle's lock within 30 s")
