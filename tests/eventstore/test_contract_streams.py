"""The storage contract of live streams, on every backend (memory, Redis, Redis Cluster): stream tickets,
and one call that follows the outcomes of many battles at once."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

from redis.cluster import RedisCluster

from eventstore.records import Projection, TicketRecord
from eventstore.redis_store import RedisEventStore
from tests.eventstore.helpers import battle, eventually
from tests.fixtures.redis_server import Backend


def ticket(digest: str = "t" * 64, **fields: object) -> TicketRecord:
    values: dict[str, object] = {"token_digest": "d" * 64, "token_id": "tok-1", "role": "side", **fields}
    return TicketRecord(digest=digest, **values)  # type: ignore[arg-type]


def outcomes(store: Backend, battle_id: str, first: int, last: int) -> None:
    store.save_projection(
        battle_id,
        state=Projection(version=last, state="{}"),
        outcomes=[(v, f'{{"version":{v}}}') for v in range(first, last + 1)],
    )


def test_a_ticket_is_taken_once(store: Backend) -> None:
    battle(store)
    store.add_ticket("b1", ticket(scope="attacker"), ttl_s=30)

    assert store.take_ticket("b1", "t" * 64) == ticket(scope="attacker")
    assert store.take_ticket("b1", "t" * 64) is None


def test_a_ticket_belongs_to_its_battle(store: Backend) -> None:
    battle(store, "b1")
    battle(store, "b2")
    store.add_ticket("b1", ticket(), ttl_s=30)

    assert store.take_ticket("b2", "t" * 64) is None
    assert store.take_ticket("b1", "u" * 64) is None
    assert store.take_ticket("b1", "t" * 64) == ticket()


def test_a_ticket_expires(store: Backend) -> None:
    battle(store)
    store.add_ticket("b1", ticket(), ttl_s=0.05)
    store.add_ticket("b1", ticket("v" * 64), ttl_s=30)

    time.sleep(0.2)

    assert store.take_ticket("b1", "t" * 64) is None
    assert store.take_ticket("b1", "v" * 64) == ticket("v" * 64)


def test_following_answers_the_outcomes_after_each_cursor_of_every_battle(store: Backend) -> None:
    for battle_id in ("b1", "b2", "b3", "b4"):  # on a cluster: battles on several slots and nodes
        battle(store, battle_id, commands=4)
    outcomes(store, "b1", 1, 5)
    outcomes(store, "b2", 1, 2)
    outcomes(store, "b3", 1, 3)

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

    outcomes(store, "b2", 1, 1)
    follower.join(timeout=30)

    assert got == [{"b2": [(1, '{"version":1}')]}]


def test_following_gives_nothing_when_nothing_lands_in_time(store: Backend) -> None:
    battle(store, commands=2)
    outcomes(store, "b1", 1, 2)

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
    outcomes(store, "b1", 1, 1)
    assert store.follow_outcomes({"b1": 0}, 30) == {"b1": [(1, '{"version":1}')]}
    assert store.follow_outcomes({"b1": 1}, timeout_s=0.05) == {}
