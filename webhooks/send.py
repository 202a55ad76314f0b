"""Post one message to a checked address: http.client to the resolved IP, the URL's name as Host and TLS
SNI, no redirects followed, one timeout bounding each step (connect, send, each read) and the whole
exchange too; every failure is an answer, never an exception."""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import threading
import time
from dataclasses import dataclass

from webhooks.event import Message
from webhooks.guard import Target

USER_AGENT = "siege-webhooks/1"


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    code: int | None  # None: no HTTP answer at all
    error: str | None  # why it is no 2xx, in a few words
    duration_ms: float

    @property
    def ok(self) -> bool:
        return self.code is not None and 200 <= self.code < 300


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to the address the guard checked, never to what the name resolves to by now."""

    def __init__(self, target: Target, timeout_s: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout_s)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _PinnedHTTPS(_PinnedHTTP):
    def __init__(self, target: Target, timeout_s: float, context: ssl.SSLContext) -> None:
        super().__init__(target, timeout_s)
        self._context = context

    def connect(self) -> None:
        super().connect()
        self.sock = self._context.wrap_socket(self.sock, server_hostname=self.host)


def post(target: Target, message: Message, timeout_s: float, context: ssl.SSLContext | None = None) -> Answer:
    """The answer's status is all that is read (the body never is); past `timeout_s` in all, the socket is
    shut, so a receiver dripping its answer byte by byte still ends the attempt in time."""
    started = time.perf_counter()
    connection = (
        _PinnedHTTPS(target, timeout_s, context or ssl.create_default_context())
        if target.scheme == "https"
        else _PinnedHTTP(target, timeout_s)
    )
    expired = threading.Event()
    watchdog = threading.Timer(timeout_s, _shut, (connection, expired))
    watchdog.daemon = True
    watchdog.start()
    try:
        connection.request(
            "POST", target.path, body=message.body, headers={**message.headers, "user-agent": USER_AGENT}
        )
        code = connection.getresponse().status
        if expired.is_set():  # shut mid-answer, http.client may take the cut for the end of the headers
            raise TimeoutError
        error = None if 200 <= code < 300 else f"answered {code}"
        if 300 <= code < 400:
            error = f"answered {code}; redirects are not followed"
    except (OSError, http.client.HTTPException) as failure:  # timeouts, resets, TLS and protocol errors
        code, error = None, "timed out" if expired.is_set() else _why(failure)
    finally:
        watchdog.cancel()
        connection.close()
    return Answer(code=code, error=error, duration_ms=round((time.perf_counter() - started) * 1000, 1))


def _shut(connection: http.client.HTTPConnection, expired: threading.Event) -> None:
    expired.set()
    sock = connection.sock
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)  # wakes a blocked recv or send at once


def _why(failure: Exception) -> str:
    if isinstance(failure, TimeoutError | socket.timeout):
        return "timed out"
    text = str(failure) or type(failure).__name__
    return f"{type(failure).__name__}: {text}"[:200]
