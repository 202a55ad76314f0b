"""A command sent now and answered later, so that a fold goes on folding while the store works on its next
page or its last batch's write: one thread and one connection of the client's own pool per command in
flight (a writer thread lost more to the GIL's hand-offs than it saved, docs/performance.md). A cluster
client runs the command at once instead: its connections are per node, and a moved slot is its to follow."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from redis.cluster import RedisCluster
from redis.connection import Connection, ConnectionPool
from redis.exceptions import ConnectionError, NoScriptError, TimeoutError

from eventstore.config import RedisClient

T = TypeVar("T")
_DONE = object()  # answered or dropped: the command has nothing more to give


class InFlight(Generic[T]):
    """`answer()` reads the reply once and gives the connection back; `drop()` gives it back unanswered,
    disconnected, so that no later command reads this reply. `fallback` is the ordinary call, with the
    client's own retries: it answers instead when the command or its reply was lost, or the server forgot a
    script. Only for commands that may run twice: a read, or a write its own guard refuses the second time
    (the caller then sees its own write as one already made)."""

    def __init__(
        self,
        client: RedisClient,
        command: tuple[str | int, ...],
        parse: Callable[[Any], T],
        fallback: Callable[[], T],
    ) -> None:
        self._fallback, self._parse = fallback, parse
        self._pending: tuple[ConnectionPool, Connection] | None = None  # while the reply is unread
        self._ready: object = _DONE  # the answer, when it came at once
        if isinstance(client, RedisCluster):
            self._ready = fallback()
            return
        pool = client.connection_pool
        connection = pool.get_connection()
        try:
            connection.send_command(*command)
        except (ConnectionError, TimeoutError):
            _give_back(pool, connection)
            self._ready = fallback()
            return
        except BaseException:
            _give_back(pool, connection)
            raise
        self._pending = (pool, connection)

    def answer(self) -> T:
        if self._pending is None:
            if self._ready is _DONE:
                raise RuntimeError("this command was answered or dropped already")
            ready, self._ready = self._ready, _DONE
            return ready  # type: ignore[return-value]  # what fallback() returned
        (pool, connection), self._pending = self._pending, None
        try:
            reply = connection.read_response()
        except NoScriptError:  # the connection is clean: the server only forgot the script
            pool.release(connection)
            return self._fallback()
        except (ConnectionError, TimeoutError):
            _give_back(pool, connection)
            return self._fallback()
        except BaseException:
            _give_back(pool, connection)  # an error reply or an interrupt: the connection is trusted no more
            raise
        pool.release(connection)
        return self._parse(reply)

    def drop(self) -> None:
        if self._pending is not None:
            (pool, connection), self._pending = self._pending, None
            _give_back(pool, connection)
        self._ready = _DONE


def _give_back(pool: ConnectionPool, connection: Connection) -> None:
    """Disconnected first: whatever the server still sends on it is never read as another command's reply."""
    connection.disconnect()
    pool.release(connection)
