"""Undo's rewind: the battle as it stood at an earlier version, folded again from the log (after the
nearest stored state, if the caller has one) and remembered for the rest of the fold."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules.fold import Battle, LogEntry, Seeds, project

Entries = Callable[[int, int], Iterable[LogEntry]]  # the log after version `a` up to `b` inclusive
Start = Callable[[int], "Battle[Any] | None"]  # a stored state at or before a version (a snapshot), if any
KEEP = 64  # earlier states one fold remembers: each undo asks for one, nested undos for a few more


class Rewinder:
    """A `Rewind` for `rules.fold.step`: exact, since folding the same entries again gives the same states
    (dice are tied to versions), and compact, since no state carries the ones before it."""

    def __init__(self, entries: Entries, seeds: Callable[[], Seeds], start: Start | None = None) -> None:
        self._entries = entries
        self._seeds = seeds
        self._start = start
        self._known: dict[int, Battle[Any]] = {}

    def __call__(self, version: int) -> Battle[Any]:
        base = self._nearest(version)
        if base is not None and base.version == version:
            return base
        after = base.version if base is not None else 0
        battle = base
        for folded, _outcome in project(base, self._entries(after, version), self._seeds(), self):
            battle = folded
        if battle is None or battle.version != version:
            raise ValueError(f"the log has no version {version} to rewind to")
        if len(self._known) >= KEEP:
            self._known.clear()
        self._known[version] = battle
        return battle

    def _nearest(self, version: int) -> Battle[Any] | None:
        candidates = [b for v, b in self._known.items() if v <= version]
        stored = self._start(version) if self._start is not None else None
        if stored is not None and stored.version <= version:
            candidates.append(stored)
        return max(candidates, key=lambda b: b.version, default=None)
