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
    """Bounded, oldest first out; holds each answer as the JSON text it was sent as."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._answers: dict[Seen, str] = {}
        self._lock = threading.Lock()

    def get(self, seen: Seen) -> str | None:
        return self._answers.get(seen)

    def put(self, seen: Seen, answer: str) -> None:
        if self.size == 0:
            return
        with self._lock:
            if len(self._answers) >= self.size:
                self._answers.pop(next(iter(self._answers)), None)
            self._answers[seen] = answer
