"""Server-Sent Events over a real socket, for the tests that hold streams open against real gunicorn."""

from __future__ import annotations

import http.client
import re
import urllib.request
from collections.abc import Iterator, Mapping
from urllib.parse import urlsplit

from tests.sse import EventReader

OPEN_STREAMS = re.compile(r"^siege_streams_open(?:\{[^}]*\})? ([0-9.e+-]+)$", re.MULTILINE)


class LiveStream:
    """One open stream; `close()` is the client going away (the socket closed, nothing said)."""

    def __init__(self, base_url: str, path: str, headers: Mapping[str, str] | None = None) -> None:
        url = urlsplit(base_url)
        self._connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=30)
        self._connection.request("GET", path, headers=dict(headers or {}))
        self.response = self._connection.getresponse()
        self.status = self.response.status
        self.events = EventReader(self._lines())

    def _lines(self) -> Iterator[str]:
        while line := self.response.readline():
            yield line.decode("utf-8").removesuffix("\n")

    def close(self) -> None:
        self.response.close()
        self._connection.close()


def open_streams(base_url: str) -> float:
    """The `siege_streams_open` gauge, summed over the API processes, as /metrics reports it."""
    with urllib.request.urlopen(f"{base_url}/metrics", timeout=30) as response:
        text = response.read().decode()
    return sum(float(v) for v in OPEN_STREAMS.findall(text))
