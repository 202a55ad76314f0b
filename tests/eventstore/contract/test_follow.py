"""Following's contract, on every backend: waiting for one battle's outcome, and one call that follows the
outcomes of many battles at once until one lands or it is interrupted."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

from redis.cluster import RedisCluster

from eventstore.records import Projection
from eventstore.redis_store import RedisEventStore
from tests.eventstore.contract.builders import outcomes, state
from tests.eventstore.helpers import battle, eventually
from tests.fixtures.redis_server import Backend


def test_wait_outcome_returns_when_a_projection_lands(store: Backend) -> None:
    battle(store, commands=4)
    store.save_projection("b1", state=state(1), outcomes=outcomes(1, 1))
    got: list[str | None] = []
    waiter = threading.Thread(target=lambda: got.append(store.wait_outcome("b1", 3, timeout_s=30)))
    waiter.start()
    time.sleep(0.05)  # let the waiter block first; correctness does not depend on it
    store.save_projection("b1", state=state(2), outcomes=outcomes(2, 2))
    store.save_projection("b1", state=state(4), outcomes=outcomes(3, 4))
    waiter.join(timeout=30)
    assert got == ['{"version":3}']


def test_wait_outcome_answers_at_once_when_the_outcome_exists(store: Backend) -> None:
    battle(store, commands=2)
    store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    assert store.wait_outcome("b1", 2, timeout_s=30) == '{"version":2}'


def test_wait_outcome_gives_none_when_nothing_lands_in_time(store: Backend) -> None:
    battle(store, commands=2)
    assert store.wait_outcome("b1", 3, timeout_s=0.05) is None
    assert store.wait_outcome("b1", 3, timeout_s=0) is None


def folded(store: Backend, battle_id: str, first: int, last: int) -> None:
    store.save_projection(
        battle_id,
        state=Projection(version=last, state="{}"),
        outcomes=[(v, f'{{"version":{v}}}') for v in range(first, last + 1)],
    )


def test_following_answers_the_outcomes_after_each_cursor_of_every_battle(store: Backend) -> None:
    for battle_id in ("b1", "b2", "b3", "b4"):  # on a cluster: battles on several slots and nodes
        battle(store, battle_id, commands=4)
    folded(store, "b1", 1, 5)
    folded(store, "b2", 1, 2)
    folded(store, "b3", 1, 3)

    found = store.follow_outcomes({"b1": 3, "b2": 2, "b3": 0, "b4": 0}, timeout_s=5, count=2)

    assert found == {
        "b1": [(4, '{"version":4}'), (5, '{"version":5}')],
        "b3": [(1, '{"version":1}'), (2, '{"version":2}')],
    }


def test_following_blocks_until_an_outcome_lands(store: Backend) -> None:
    battle(store, "b1", commands=2)
    battle(store, "b2", commands=2)
    got: list[dict[str, list[tuple[int, str]]]] = []
    follower = threading.Thread(target=lambda: got.append(store.follow_outcomes({"b1": 0, "b2": 0}, 30)))
    follower.start()
    time.sleep(0.1)  # let the follower block first; correctness does not depend on it

    folded(store, "b2", 1, 1)
    follower.join(timeout=30)

    assert got == [{"b2": [(1, '{"version":1}')]}]


def test_following_gives_nothing_when_nothing_lands_in_time(store: Backend) -> None:
    battle(store, commands=2)
    folded(store, "b1", 1, 2)

    assert store.follow_outcomes({"b1": 2}, timeout_s=0.05) == {}
    assert store.follow_outcomes({"b1": 2}, timeout_s=0) == {}
    assert store.follow_outcomes({}, timeout_s=0.05) == {}


def test_an_interrupt_ends_a_follow_in_progress_with_nothing(store: Backend) -> None:
    battle(store, commands=2)
    got: list[dict[str, list[tuple[int, str]]]] = []
    follower = threading.Thread(target=lambda: got.append(store.follow_outcomes({"b1": 0}, 30)))
    follower.start()
    assert eventually(follow_in_progress(store, follower))  # an interrupt before it would end it as well

    store.interrupt_follow()
    follower.join(timeout=30)

    assert got == [{}]


def follow_in_progress(store: Backend, follower: threading.Thread) -> Callable[[], bool]:
    """The follower's wait has begun: its XREAD blocked in the server (Redis); in this process, waiting for
    a change (memory) or for the alarm between two reads (a cluster polls: no read of it blocks)."""
    if isinstance(store, RedisEventStore) and not isinstance(store.client, RedisCluster):
        client = store.client
        return lambda: any("b" in c["flags"] and c["cmd"] == "xread" for c in client.client_list())
    return lambda: waiting_in(follower, "follow_outcomes")


def waiting_in(thread: threading.Thread, function: str) -> bool:
    """The thread sleeps in a threading wait called (at any depth) from `function`."""
    frame = sys._current_frames().get(thread.ident or -1)
    names = []
    while frame is not None:
        names.append(frame.f_code.co_name)
        frame = frame.f_back
    return bool(names) and names[0] == "wait" and function in names


def test_an_interrupt_while_no_follow_runs_ends_the_next_one_only(store: Backend) -> None:
    battle(store, commands=2)

    store.interrupt_follow()

    assert store.follow_outcomes({"b1": 0}, 30) == {}
    folded(store, "b1", 1, 1)
    assert store.follow_outcomes({"b1": 0}, 30) == {"b1": [(1, '{"version":1}')]}
    assert store.follow_outcomes({"b1": 1}, timeout_s=0.05) == {}
