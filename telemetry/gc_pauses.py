"""Python's garbage collector in a long-lived process: what it starts with frozen out of every later
collection's walk, and the pauses of the collections that remain timed (docs/performance.md has both)."""

from __future__ import annotations

import gc
import logging
import os
import threading
import time
from collections import deque
from typing import Any

from telemetry.metrics import GC_PAUSE_SECONDS

TIMED = (1, 2)  # generation 0 runs every 700 allocations and takes microseconds: timing it costs more
FLUSH_S = 1.0  # how often the timed pauses reach the histogram
KEPT = 10_000  # pauses waiting for the histogram at most; older ones go first
log = logging.getLogger("siege.gc")


class Pauses:
    """Collections timed in the collector's own callback, handed to the histogram by a thread of their own:
    the callback runs wherever an allocation starts a collection, even while this very thread holds
    prometheus-client's lock, which it would then wait for forever."""

    def __init__(self, role: str, frozen: int) -> None:
        self.role = role
        self.frozen = frozen
        self._started = 0.0
        self._ended: deque[tuple[int, float]] = deque(maxlen=KEPT)
        self._stopped = threading.Event()

    def timed(self, phase: str, info: dict[str, Any]) -> None:
        """gc.callbacks: a clock read and a deque append, nothing that takes a lock."""
        if info["generation"] not in TIMED:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self._ended.append((info["generation"], time.perf_counter() - self._started))

    def flush(self) -> None:
        # what is there now, no more: recording a pause allocates, which may start (and add) another
        for _ in range(len(self._ended)):
            try:
                generation, seconds = self._ended.popleft()
            except IndexError:  # another flush took it
                return
            GC_PAUSE_SECONDS.labels(process=self.role, generation=str(generation)).observe(seconds)

    def _flush_until_stopped(self) -> None:
        while not self._stopped.wait(FLUSH_S):
            self.flush()

    def stop(self) -> None:
        """No more timing (tests: the process goes on without it)."""
        self._stopped.set()
        if self.timed in gc.callbacks:
            gc.callbacks.remove(self.timed)


def settle(role: str) -> Pauses:
    """Once per process, when it is about to serve: collect what start-up left behind, freeze the rest
    (gc.freeze: what it imported and built lives as long as the process), and time every later collection
    of the generations in TIMED in `siege_gc_pause_seconds{process=role}`. SIEGE_GC_FREEZE=0: no freeze."""
    if freezing():
        gc.collect()  # garbage frozen would never be freed: collect it first
        gc.freeze()
    pauses = Pauses(role, gc.get_freeze_count())
    gc.callbacks.append(pauses.timed)
    threading.Thread(target=pauses._flush_until_stopped, name="siege-gc-pauses", daemon=True).start()
    log.info(
        "process %d (%s) froze %d objects out of the garbage collector's walk",
        os.getpid(),
        role,
        pauses.frozen,
    )
    return pauses


def freezing() -> bool:
    value = os.environ.get("SIEGE_GC_FREEZE", "1")
    if value not in ("0", "1"):
        raise ValueError(f"SIEGE_GC_FREEZE must be 0 or 1, not {value!r}")
    return value == "1"
