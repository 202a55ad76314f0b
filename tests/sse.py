"""A small Server-Sent Events reader for the tests (the WHATWG event-stream format), over any source of
text lines: the Flask test client's chunks or a real socket's lines."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Event:
    event: str | None = None
    id: str | None = None
    data: str | None = None
    retry: int | None = None
    comments: list[str] = field(default_factory=list)

    def json(self) -> Any:
        assert self.data is not None, self
        return json.loads(self.data)


def lines_of(chunks: Iterable[bytes] | Iterable[str]) -> Iterator[str]:
    """Lines of a body that arrives in chunks that may split a line."""
    pending = ""
    for chunk in chunks:
        pending += chunk.decode("utf-8") if isinstance(chunk, bytes) else chunk
        *complete, pending = pending.split("\n")
        yield from complete
    if pending:
        yield pending


class EventReader:
    def __init__(self, lines: Iterator[str]) -> None:
        self._lines = lines

    def next(self) -> Event | None:
        """The next frame (an event, a comment or a retry hint), None at the end of the stream."""
        frame, seen = Event(), False
        for line in self._lines:
            if line == "":
                if seen:
                    return frame
                continue
            seen = True
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "":
                frame.comments.append(value)
            elif name == "data":
                frame.data = value if frame.data is None else f"{frame.data}\n{value}"
            elif name in ("event", "id"):
                setattr(frame, name, value)
            elif name == "retry":
                frame.retry = int(value)
        return frame if seen else None

    def until(self, wanted: Callable[[Event], bool], timeout_s: float = 20) -> Event:
        """Read frames until one is wanted; heartbeats keep the reads short, the bound keeps a broken
        stream from hanging the suite."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            frame = self.next()
            assert frame is not None, "the stream ended first"
            if wanted(frame):
                return frame
        raise AssertionError(f"nothing wanted within {timeout_s}s")

    def outcomes(self, count: int, timeout_s: float = 20) -> list[Event]:
        return [self.until(lambda f: f.event == "outcome", timeout_s) for _ in range(count)]
