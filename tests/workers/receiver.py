"""A webhook receiver for tests: a real HTTP server thread on loopback that answers each POST as its script
says (a 500, a hang past the sender's timeout, a connection reset, else 204) and records every request."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks import Webhook


@dataclass(frozen=True, slots=True)
class Received:
    headers: dict[str, str]
    body: bytes
    answered: int | None  # None: the connection was reset

    @property
    def id(self) -> str:
        return self.headers["webhook-id"]


class Receiver:
    def __init__(self, faults: list[str] | None = None, *, hang_s: float = 2.0) -> None:
        """`faults`: the answers to the first requests, in order (`500`, `hang`, `reset`, `drip` or `ok`)."""
        self.faults = list(faults or [])
        self.always: str | None = None  # a fault answered to every request, while set
        self.hang_s = hang_s
        self.requests: list[Received] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hooks/siege?from=test"

    def next_answer(self) -> str:
        with self._lock:
            if self.always is not None:
                return self.always
            return self.faults.pop(0) if self.faults else "ok"

    def record(self, received: Received) -> None:
        with self._lock:
            self.requests.append(received)

    def delivered(self) -> list[Received]:
        """The requests answered with a 2xx, in the order they came: what a receiver acted on."""
        with self._lock:
            return [r for r in self.requests if r.answered is not None and 200 <= r.answered < 300]

    def unique_ids(self) -> list[str]:
        """The webhook-ids acted on, each once, in the order first seen (a receiver's dedupe)."""
        seen: dict[str, None] = {}
        for received in self.delivered():
            seen.setdefault(received.id, None)
        return list(seen)

    def verified(self, secret: str) -> list[Any]:
        """Every request's body, each verified against its signature (raises on the first that fails)."""
        with self._lock:
            requests = list(self.requests)
        return [Webhook(secret).verify(r.body, r.headers) for r in requests]

    @contextlib.contextmanager
    def running(self) -> Iterator[Receiver]:
        thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05})
        thread.start()
        try:
            yield self
        finally:
            self._server.shutdown()
            self._server.server_close()
            thread.join(timeout=10)


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            headers = {k.lower(): v for k, v in self.headers.items()}
            answer = receiver.next_answer()
            if answer == "reset":
                receiver.record(Received(headers, body, None))
                # SO_LINGER 0: close sends a RST, what a crashing receiver looks like
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.close_connection = True
                self.connection.close()
                return
            if answer == "drip":  # a 200 whose headers come a byte at a time, each soon after the last
                receiver.record(Received(headers, body, None))
                with contextlib.suppress(OSError):
                    self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                    for byte in b"x-slow: " + b"." * int(receiver.hang_s * 10) + b"\r\n\r\n":
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(0.1)
                self.close_connection = True
                return
            if answer == "hang":
                time.sleep(receiver.hang_s)  # past the sender's timeout: it gave up, yet we act on it
            code = 500 if answer == "500" else 204
            receiver.record(Received(headers, body, code))
            self.send_response(code)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler
