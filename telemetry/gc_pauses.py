"""Python's cyclic garbage collector in a long-lived process: what its pauses cost, and what it need not walk.

A full (generation 2) collection walks every object the collector tracks, and holds the GIL while it does:
every thread of the process stops. An API process holds about 100,000 such objects under load, half of
them made by its imports, and each full collection stopped it for 80–93 ms of CPU, the tail of a
`Prefer: wait` (docs/performance.md). What a process imports and builds before its first request lives as
long as the process, so `settle()`, called once it is ready, moves those objects to the permanent generation
(`gc.freeze`), which no collection walks again, and times the collections that remain.
SIEGE_GC_FREEZE=0 leaves the collector as Python sets it (the collections are still timed), to compare."""

from __future__ import annotations

import gc
import os
import time
from typing import Any

from telemetry.metrics import GC_FROZEN_OBJECTS, GC_PAUSE_SECONDS

TIMED = (1, 2)  # generation 0 runs every 700 allocations and takes microseconds: timing it costs more

_started: list[float] = []  # the running collection's start; the collector runs one at a time
_role: list[str] = []  # the process's, as settle() was told


def settle(role: str) -> int:
    """Collect what start-up left behind, freeze the rest, and time every later collection of the
    generations in TIMED, labelled with `role` (api, worker); once per process, when it is about to serve.
    Returns the objects frozen."""
    if freezing():
        gc.collect()  # garbage frozen would never be freed: collect it first
        gc.freeze()
    frozen = gc.get_freeze_count()
    GC_FROZEN_OBJECTS.set(frozen)
    _role[:] = [role]
    if _timed not in gc.callbacks:
        gc.callbacks.append(_timed)
    return frozen


def _timed(phase: str, info: dict[str, Any]) -> None:
    if info["generation"] not in TIMED:
        return
    if phase == "start":
        _started[:] = [time.perf_counter()]
    elif _started:
        paused = time.perf_counter() - _started.pop()
        GC_PAUSE_SECONDS.labels(process=_role[0], generation=str(info["generation"])).observe(paused)


def freezing() -> bool:
    value = os.environ.get("SIEGE_GC_FREEZE", "1")
    if value not in ("0", "1"):
        raise ValueError(f"SIEGE_GC_FREEZE must be 0 or 1, not {value!r}")
    return value == "1"
