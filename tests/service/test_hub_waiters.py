"""`Prefer: wait` on the process's hub (service/streams/hub.py), on every backend (memory, Redis, Redis
Cluster): waiters woken by the one reader, an outcome written before its waiter came, a waiter for an
outcome the reader had read already, timeouts, and battles read only while waited on."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from eventstore.config import RedisClient, connect
from eventstore.embedded import EmbeddedServer
from eventstore.memory_store import MemoryEventStore
from eventstore.records import Projection
from eventstore.redis_store import RedisEventStore
from service.app import create_app
from service.deps import EXTENSION
from service.streams.hub import Hub
from service.streams.subscriptions import StreamsFull
from tests.eventstore.helpers import battle, eventually
from tests.fixtures.app import GmClient, config_for
from tests.fixtures.redis_server import Backend
from tests.service.helpers import WALL, create_battle, send

WAIT_S = 30.0  # a bound only: every wait below ends on its outcome long before
HELD_S = 600.0  # a wait that only its outcome or an outage ends within the test's bound of WAIT_S


def outcomes(store: Backend, battle_id: str, first: int, last: int) -> None:
    store.save_projection(
        battle_id,
        state=Projection(version=last, state="{}"),
        outcomes=[(v, f'{{"version":{v}}}') for v in range(first, last + 1)],
    )


@pytest.fixture
def hub(store: Backend) -> Hub:
    return Hub(store, store, max_streams=10)


class Waits:
    """Waits on the hub in threads of their own, answers kept in the order asked."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub
        self._threads: list[threading.Thread] = []
        self.got: dict[tuple[str, int], str | None] = {}

    def start(self, battle_id: str, version: int, timeout_s: float = WAIT_S) -> None:
        def wait() -> None:
            self.got[(battle_id, version)] = self._hub.wait_outcome(battle_id, version, timeout_s)

        thread = threading.Thread(target=wait)
        thread.start()
        self._threads.append(thread)

    def join(self) -> dict[tuple[str, int], str | None]:
        for thread in self._threads:
            thread.join(timeout=WAIT_S)
        return self.got


@pytest.fixture
def waits(hub: Hub) -> Iterator[Waits]:
    yield Waits(hub)


def waiting(hub: Hub, count: int) -> Callable[[], bool]:
    return lambda: hub.waiting == count


def test_waiters_on_several_battles_are_woken_by_the_reader_with_their_outcome(
    store: Backend, hub: Hub, waits: Waits
) -> None:
    for battle_id in ("b1", "b2", "b3"):  # on a cluster: several slots and nodes
        battle(store, battle_id, commands=2)
    outcomes(store, "b1", 1, 1)
    outcomes(store, "b2", 1, 1)
    waits.start("b1", 2)
    waits.start("b1", 3)
    waits.start("b2", 2)
    waits.start("b3", 3)
    assert eventually(waiting(hub, 4))

    outcomes(store, "b1", 2, 3)
    outcomes(store, "b2", 2, 2)
    outcomes(store, "b3", 1, 3)

    assert waits.join() == {
        ("b1", 2): '{"version":2}',
        ("b1", 3): '{"version":3}',
        ("b2", 2): '{"version":2}',
        ("b3", 3): '{"version":3}',
    }
    assert hub.waiting == 0


def test_an_outcome_written_before_its_waiter_came_is_answered_at_once(store: Backend, hub: Hub) -> None:
    battle(store, commands=2)
    outcomes(store, "b1", 1, 3)

    assert hub.wait_outcome("b1", 2, WAIT_S) == '{"version":2}'  # no outcome comes after it: read first
    assert hub.wait_outcome("b1", 3, WAIT_S) == '{"version":3}'


def test_a_waiter_for_an_outcome_the_reader_read_already_gets_it_again(store: Backend, hub: Hub) -> None:
    battle(store, commands=3)
    stream = hub.subscribe("b1")  # a stream keeps b1 watched: the reader reads on past each outcome
    outcomes(store, "b1", 1, 4)
    assert [item.version for item in stream.take(WAIT_S).items] == [1, 2, 3, 4]  # the reader is past v4

    assert hub.wait_outcome("b1", 3, WAIT_S) == '{"version":3}'  # behind the reader: read again
    assert hub.wait_outcome("b1", 4, WAIT_S) == '{"version":4}'
    hub.unsubscribe(stream)


def test_a_waiter_for_an_earlier_version_than_the_one_watched_is_answered(
    store: Backend, hub: Hub, waits: Waits
) -> None:
    battle(store, commands=3)
    waits.start("b1", 4)
    assert eventually(waiting(hub, 1))
    waits.start("b1", 3)  # appended first, came to wait second
    assert eventually(waiting(hub, 2))

    outcomes(store, "b1", 1, 4)

    assert waits.join() == {("b1", 4): '{"version":4}', ("b1", 3): '{"version":3}'}


def test_a_wait_gives_none_when_its_outcome_does_not_come_in_time(store: Backend, hub: Hub) -> None:
    battle(store, commands=2)
    outcomes(store, "b1", 1, 1)

    assert hub.wait_outcome("b1", 2, timeout_s=0.05) is None
    assert hub.wait_outcome("b1", 2, timeout_s=0) is None
    assert hub.waiting == 0


def test_a_battle_is_read_while_someone_waits_on_it_and_no_longer(store: Backend, hub: Hub) -> None:
    battle(store, commands=2)
    outcomes(store, "b1", 1, 1)
    waits = Waits(hub)
    waits.start("b1", 2)
    assert eventually(waiting(hub, 1))
    assert hub.watched == {"b1"}

    outcomes(store, "b1", 2, 2)

    assert waits.join() == {("b1", 2): '{"version":2}'}
    assert hub.watched == set()
    assert hub.wait_outcome("b1", 3, timeout_s=0.05) is None
    assert hub.watched == set()


def test_many_waiters_hold_one_blocked_read_of_the_store_between_them(own_server: EmbeddedServer) -> None:
    client = connect(own_server.url)
    store = RedisEventStore(client)
    hub = Hub(store, store, max_streams=10)
    waits = Waits(hub)
    battles = [battle(store, f"b{n}", commands=1) for n in range(20)]
    for battle_id in battles:
        waits.start(battle_id, 2)
    assert eventually(waiting(hub, 20))

    assert eventually(lambda: blocked_reads(client) == 1)  # no XREAD per waiter: one for them all
    for battle_id in battles:
        outcomes(store, battle_id, 1, 2)
    assert set(waits.join().values()) == {'{"version":2}'}


def blocked_reads(client: RedisClient) -> int:
    return sum("b" in c["flags"] and c["cmd"] == "xread" for c in client.client_list())


def test_a_store_outage_lets_every_waiter_go_at_once_and_new_ones_too(own_server: EmbeddedServer) -> None:
    store = RedisEventStore(connect(own_server.url, socket_timeout=2))
    hub = Hub(store, store, max_streams=10)
    waits = Waits(hub)
    battle(store, commands=1)
    waits.start("b1", 2, HELD_S)
    assert eventually(waiting(hub, 1))

    own_server.stop()
    assert waits.join() == {("b1", 2): None}
    waits.start("b1", 3, HELD_S)  # while the reader cannot read: let go at once
    assert waits.join() == {("b1", 2): None, ("b1", 3): None}

    own_server.start()  # back: waits are answered again, though no stream kept a battle watched
    outcomes(store, "b1", 1, 3)
    assert eventually(lambda: hub.wait_outcome("b1", 3, 1.0) == '{"version":3}', bound_s=15)


def test_a_command_whose_wait_the_store_outage_ends_is_answered_202(own_server: EmbeddedServer) -> None:
    url = own_server.url
    app = create_app(
        config_for(url, max_wait_s=HELD_S),
        store=RedisEventStore(connect(url, socket_timeout=2)),
        queue_redis=connect(url),
    )
    client = GmClient(app, app.response_class, use_cookies=False)
    battle_id = create_battle(client)
    answered: list[int] = []
    waiting_post = threading.Thread(
        target=lambda: answered.append(
            send(client, battle_id, WALL, headers={"Prefer": "wait=600"}).status_code
        )
    )
    waiting_post.start()
    assert eventually(waiting(app.extensions[EXTENSION].hub, 1))  # appended; no worker folds it

    own_server.stop()
    waiting_post.join(timeout=WAIT_S)

    assert answered == [202]  # long before its wait: the command is in the log, and never a 5xx


def test_the_reader_deletes_its_alarm_once_woken_so_it_never_grows(own_server: EmbeddedServer) -> None:
    client = connect(own_server.url)
    store = RedisEventStore(client)
    battle(store, commands=1)
    for _ in range(5):
        store.interrupt_follow()
        assert store.follow_outcomes({"b1": 0}, WAIT_S) == {}

    assert list(client.scan_iter("siege:follow:alarm:*")) == []  # streams are never trimmed: deleted


class FailsOnce(MemoryEventStore):
    """A store whose next follow_outcomes fails once (a blip), then answers again."""

    failing = False

    def follow_outcomes(
        self, cursors: Mapping[str, int], timeout_s: float, *, count: int = 100
    ) -> dict[str, list[tuple[int, str]]]:
        if self.failing:
            self.failing = False
            raise ConnectionError("blip")
        return super().follow_outcomes(cursors, timeout_s, count=count)


def test_waiters_are_answered_again_once_the_store_is_back_after_a_blip() -> None:
    store = FailsOnce()
    hub = Hub(store, store, max_streams=10)
    battle(store, commands=3)
    store.failing = True
    assert hub.wait_outcome("b1", 2, WAIT_S) is None  # the blip lets it go: 202
    outcomes(store, "b1", 1, 3)

    assert eventually(lambda: hub.wait_outcome("b1", 3, 1.0) == '{"version":3}', bound_s=15)


class HeldInDelivery(MemoryEventStore):
    """Holds the reader in `delivered` (its commands' read): after the waiters' hand-over, before the
    fan-out."""

    def __init__(self) -> None:
        super().__init__()
        self.entered, self.release = threading.Event(), threading.Event()
        self.armed = False

    def read(self, *args: Any, **kwargs: Any) -> Any:
        if self.armed and threading.current_thread().name == "siege-stream-hub":
            self.armed = False
            self.entered.set()
            self.release.wait(WAIT_S)
        return super().read(*args, **kwargs)


def test_a_waiter_coming_while_a_streamed_batch_is_handed_out_gets_its_outcome() -> None:
    store = HeldInDelivery()
    hub = Hub(store, store, max_streams=10)
    battle(store, commands=3)
    hub.subscribe("b1")  # a viewer streams the battle from this process
    store.armed = True
    outcomes(store, "b1", 1, 2)  # folded before the command's waiter came
    assert store.entered.wait(WAIT_S)
    got: list[str | None] = []
    waiter = threading.Thread(target=lambda: got.append(hub.wait_outcome("b1", 2, 2.0)))
    waiter.start()
    assert eventually(lambda: hub.waiting == 1)

    store.release.set()
    waiter.join(WAIT_S)

    assert got == ['{"version":2}']


def test_closing_ends_every_stream_lets_every_waiter_go_and_stops_the_reader() -> None:
    store = MemoryEventStore()
    hub = Hub(store, store, max_streams=10)
    battle(store, commands=2)
    stream = hub.subscribe("b1")
    waits = Waits(hub)
    waits.start("b1", 3, HELD_S)
    assert eventually(waiting(hub, 1))

    hub.close()

    assert waits.join() == {("b1", 3): None}  # its 202
    assert stream.take(WAIT_S).closed
    with pytest.raises(StreamsFull):  # a closed hub takes no stream
        hub.subscribe("b1")
    assert hub.wait_outcome("b1", 2, WAIT_S) is None  # nor a waiter: at once, not after WAIT_S
    reader = hub._thread  # the reader this hub started (the test's own look inside)
    assert reader is not None
    reader.join(WAIT_S)
    assert not reader.is_alive()
