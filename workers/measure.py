"""What a fold reports to the metrics (telemetry/metrics.py): outcomes by ruleset, type and status, and the
projection lag; tallied in plain dicts per batch and handed over once per write, not per command."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
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
        self.seal()()

    def seal(self) -> Callable[[], None]:
        """What was tallied so far set apart as one batch, and counting starts afresh: the call returned
        reports that batch once its write is stored (a fold folds the next batch meanwhile)."""
        counts, oldest = self._counts, self._oldest
        self._counts, self._oldest = Counter(), None
        return lambda: _report(counts, oldest)


def _report(counts: Mapping[tuple[str, str, str], int], oldest: str | None) -> None:
    for (ruleset, kind, status), count in counts.items():
        COMMANDS.labels(ruleset, kind, status).inc(count)
    if oldest:
        PROJECTION_LAG_SECONDS.observe(max(time.time() - _epoch(oldest), 0.0))


def _epoch(recorded_at: str) -> float:
    try:
        return datetime.fromisoformat(recorded_at).timestamp()
    except ValueError:  # not a time this service wrote: no lag to report
        return time.time()
