"""What a fold reports to the metrics (telemetry/metrics.py): outcomes by ruleset, type and status, and the
projection lag; tallied in plain dicts per batch and handed over once per write, not per command."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime

from eventstore.records import StoredEntry
from rules.codec import JSON
from telemetry.metrics import COMMANDS, PROJECTION_LAG_SECONDS


class FoldTally:
    """Watches the entries a fold reads and the outcomes it makes; `written()` after each batch stored."""

    def __init__(self) -> None:
        self._counts: Counter[tuple[str, str, str]] = Counter()
        self._reading = ""  # recorded_at of the entry being folded
        self._oldest: str | None = None  # ... of the first entry of the batch not written yet

    def watch(self, entries: Iterable[StoredEntry]) -> Iterator[StoredEntry]:
        for entry in entries:
            self._reading = entry.recorded_at
            yield entry

    def folded(self, ruleset: str, outcome: Mapping[str, JSON]) -> None:
        if self._oldest is None:
            self._oldest = self._reading
        self._counts[(ruleset, str(outcome.get("type")), str(outcome.get("status")))] += 1

    def written(self) -> None:
        for (ruleset, kind, status), count in self._counts.items():
            COMMANDS.labels(ruleset, kind, status).inc(count)
        if self._oldest:
            PROJECTION_LAG_SECONDS.observe(max(time.time() - _epoch(self._oldest), 0.0))
        self._counts.clear()
        self._oldest = None


def _epoch(recorded_at: str) -> float:
    try:
        return datetime.fromisoformat(recorded_at).timestamp()
    except ValueError:  # not a time this service wrote: no lag to report
        return time.time()
