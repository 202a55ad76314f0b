"""Per-process memory of the previews answered lately, by all that decides one: the battle's state at its
head as the reader saw it (whole, or with the orders it may not see withdrawn) and the command.

The head is named by its entry's hash, which chains the whole log before it, so the key names one state
even where a version number came back with other entries (a head lost in a failover: operations.md). A
preview draws no die of the battle's (rules/preview.py: its samples are the preview's own fixed stream),
so an answer stays true: the pointer resting on the same button again is answered without deciding."""

from __future__ import annotations

import threading
from dataclasses import dataclass

# RFC 9211 `Cache-Status`: which of this memory's answers a response is, so a client or a test can tell
CACHE_NAME = "siege-previews"
HIT = f"{CACHE_NAME}; hit"
STORED = f"{CACHE_NAME}; fwd=miss; stored"
NOT_STORED = f"{CACHE_NAME}; fwd=miss"  # an answer larger than the whole memory
BYPASS = f"{CACHE_NAME}; fwd=bypass"  # SIEGE_PREVIEW_CACHE=0
# what one remembered answer costs besides its text and its command's: its key's strings and the dict's slot
ENTRY_COST = 512


@dataclass(frozen=True, slots=True)
class Seen:
    """What a preview was decided on: the battle at the head whose entry has hash `head`, withdrawn for
    `hidden_from` (None: whole)."""

    battle_id: str
    head: str  # the head entry's hash: the log up to it
    hidden_from: tuple[str | None] | None  # (the reader's side,) when its view was blanked
    command: str  # the command as loaded, canonical JSON


class PreviewMemory:
    """Bounded by about the bytes it holds (each answer's and command's characters, and ENTRY_COST), oldest
    first out; holds each answer as the JSON text it was sent as (some 10,000 characters in the spec's
    examples, at most some 27,000)."""

    def __init__(self, size: int) -> None:
        self.size = size  # about bytes; 0: nothing is kept
        self._answers: dict[Seen, str] = {}
        self._held = 0
        self._lock = threading.Lock()

    def get(self, seen: Seen) -> str | None:
        return self._answers.get(seen)

    def keep(self, seen: Seen, answer: str) -> str:
        """Remember an answer decided now; its `Cache-Status`: kept, too large to keep, or nothing kept."""
        if not self.size:
            return BYPASS
        return STORED if self.put(seen, answer) else NOT_STORED

    def put(self, seen: Seen, answer: str) -> bool:
        """Remember `answer`; False when it alone would not fit."""
        cost = _cost(seen, answer)
        if cost > self.size:
            return False
        with self._lock:
            if seen in self._answers:  # two requests decided it at once: the later one is kept
                self._held -= _cost(seen, self._answers.pop(seen))
            while self._held + cost > self.size:
                oldest = next(iter(self._answers))
                self._held -= _cost(oldest, self._answers.pop(oldest))
            self._answers[seen] = answer
            self._held += cost
        return True


def _cost(seen: Seen, answer: str) -> int:
    return len(answer) + len(seen.command) + ENTRY_COST
