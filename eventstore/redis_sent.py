"""A command sent now and answered later, so that a fold goes on folding while the store works on its next
page or its last batch's write: one thread and one connection of the client's own pool per command in
flight (a writer thread lost more to the GIL's hand-offs than it saved, docs/performance.md). A cluster
client runs the command at once instead: its connections are per node, and a moved slot is its to follow."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from redis.cluster import RedisCluster
from redis.exceptions import ConnectionError, NoScriptError, TimeoutError

from eventstore.config import RedisClient

T = TypeVar("T")


class Sent(Generic[T]):
    """`answer()` reads the reply once and gives the connection back; `drop()` gives it back unanswered,
    disconnected, so that no later command reads this reply. `again` is the ordinary call, with the client's
    own retries: it answers instead when the command or its reply was lost, or the server forgot a script.
    Only for commands that may run twice: a read, or a write its own guard refuses the second time."""

    def __init__(
        self,
        client: RedisClient,
        command: tuple[str | int, ...],
        parse: Callable[[Any], T],
        again: Callable[[], T],
    ) -> None:
        self._again, self._parse = again, parse
        self._pending: tuple[Any, Any] | None = None  # (pool, connection) while the reply is unread
        self._ready: T | None = None
        if isinstance(client, RedisCluster):
            self._ready = again()
            return
        pool = client.connection_pool
        connection = pool.get_connection()
        try:
            connection.send_command(*command)
        except (ConnectionError, TimeoutError):
            connection.disconnect()
            pool.release(connection)
            self._ready = again()
            return
        self._pending = (pool, connection)

    def answer(self) -> T:
        if self._pending is None:
            return self._ready  # type: ignore[return-value]  # set whenever nothing is pending
        (pool, connection), self._pending = self._pending, None
        try:
            reply = connection.read_response()
        except NoScriptError:  # the connection is clean: the server only forgot the script
            pool.release(connection)
            return self._again()
        except (ConnectionError, TimeoutError):
            connection.disconnect()
            pool.release(connection)
            return self._again()
        except BaseException:
            connection.disconnect()  # an error reply or an interrupt: the connection is not trusted again
            pool.release(connection)
            raise
        pool.release(connection)
        return self._parse(reply)

    def drop(self) -> None:
        if self._pending is not None:
            (pool, connection), self._pending = self._pending, None
            connection.disconnect()
            pool.release(connection)
