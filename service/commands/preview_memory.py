"""Per-process memory of the previews answered lately, by all that decides one: the battle's state at a
version as the reader saw it (whole, or with the orders it may not see withdrawn) and the command.

A state at a version never changes (battle ids are never reused, the log only grows), and a preview draws
no die of the battle's (rules/preview.py: its samples are the preview's own fixed stream), so an answer
stays true: the pointer resting on the same button again is answered without deciding anything."""

from __future__ import annotations

import threading
from dataclasses import dataclass

# RFC 9211 `Cache-Status`: which of this memory's answers a response is, so a client or a test can tell
CACHE_NAME = "siege-previews"
HIT = f"{CACHE_NAME}; hit"
STORED = f"{CACHE_NAME}; fwd=uri-miss; stored"
BYPASS = f"{CACHE_NAME}; fwd=bypass"  # SIEGE_PREVIEW_CACHE=0


@dataclass(frozen=True, slots=True)
class Seen:
    """What a preview was decided on: the battle at `version`, withdrawn for `hidden_from` (None: whole)."""

    battle_id: str
    version: int
    hidden_from: tuple[str | None] | None  # (the reader's side,) when its view was blanked
    command: str  # the command as loaded, canonical JSON


class PreviewMemory:
    """Bounded by the characters of the answers and commands it holds, oldest first out; holds each answer as
    the JSON text it was sent as (an answer is some 10 KB, at most some 30 KB in the spec's examples)."""

    def __init__(self, size: int) -> None:
        self.size = size  # characters; 0: nothing is kept
        self._answers: dict[Seen, str] = {}
        self._held = 0
        self._lock = threading.Lock()

    def get(self, seen: Seen) -> str | None:
        return self._answers.get(seen)

    def put(self, seen: Seen, answer: str) -> None:
        cost = _cost(seen, answer)
        if cost > self.size:
            return
        with self._lock:
            if seen in self._answers:  # two requests decided it at once: the later one is kept
                self._held -= _cost(seen, self._answers.pop(seen))
            while self._held + cost > self.size:
                oldest = next(iter(self._answers))
                self._held -= _cost(oldest, self._answers.pop(oldest))
            self._answers[seen] = answer
            self._held += cost


def _cost(seen: Seen, answer: str) -> int:
    return len(answer) + len(seen.command)
