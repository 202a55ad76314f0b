"""`python -m bench.folds [--entries N]`: only the fold scenarios, on an embedded store of their own.

For each ruleset's mixed log (bench.scenarios): the pure fold of entries already in memory, then a rebuild
and a verify replay through Redis, as a replay job runs them in a worker process (issue 11 item 3)."""

from __future__ import annotations

import argparse
import itertools
import secrets
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bench import RULES_BUILD, scenarios
from bench.biglog import extend
from bench.measures import Row
from eventstore.config import connect
from eventstore.embedded import EmbeddedServer
from eventstore.records import NewEntry
from eventstore.redis_store import RedisEventStore
from replay.folds import seeds_of
from rules.dice import commitment
from rules.fold import BATTLE_CREATED, project
from rules.registry import get_ruleset
from workers.replay import rebuild, verify

SOURCES: dict[str, Callable[[], Iterator[dict[str, Any]]]] = {
    "epic": lambda: scenarios.epic_turns(10**6),
    "pathfinder": lambda: scenarios.pathfinder_rounds(10**6),
}


def fold_rows(store: RedisEventStore, ruleset: str, entries: int) -> list[Row]:
    """A fresh battle of `ruleset` with `entries` mixed commands: pure fold, rebuild, verify."""
    battle_id = new_battle(store, ruleset)
    extend(store.client, store, battle_id, itertools.islice(SOURCES[ruleset](), entries))
    log = list(store.iter_entries(battle_id))
    seeds = seeds_of(store, battle_id, log[0])
    deque(project(None, log[:2_000], seeds), maxlen=0)  # warm: caches and the copiers of each record
    pure = _timed(lambda: deque(project(None, log, seeds), maxlen=0))
    rebuilt = _timed(lambda: rebuild(store, store, battle_id))
    verified = _timed(lambda: verify(store, store, battle_id).ok or sys.exit("verify found a difference"))
    return [
        Row(f"fold {ruleset}: pure, {len(log):,} entries in memory", _rates(len(log), pure)),
        Row(f"fold {ruleset}: rebuild through Redis", _rates(len(log), rebuilt), "≥ 20,000/s"),
        Row(f"fold {ruleset}: verify replay through Redis", _rates(len(log), verified), "≥ 20,000/s"),
    ]


def _timed(run: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, this process's CPU seconds): on a shared machine the CPU time is the steadier one."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def _rates(count: int, seconds: tuple[float, float]) -> str:
    wall, cpu = seconds
    return f"{count / wall:,.0f} entries/s ({count / cpu:,.0f}/s of CPU)"


def new_battle(store: RedisEventStore, ruleset: str) -> str:
    """Version 1 as service.commands.creation writes it, without the service."""
    rules, seed = get_ruleset(ruleset), secrets.token_bytes(32)
    data: dict[str, Any] = {
        "ruleset": rules.name,
        "rules_version": rules.rules_version,
        "options": dict(rules.default_options),
        "dice_commitment": commitment(seed),
        "client_seed": "bench",
        "name": None,
    }
    entry = NewEntry(
        type=BATTLE_CREATED,
        data=data,
        schema_version=1,
        actor="bench",
        idempotency_key=None,
        recorded_at="2026-12-01T00:00:00+00:00",
        dice={},
    )
    battle_id = secrets.token_hex(12)
    store.create_battle(battle_id, entry, seed.hex())
    return battle_id


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.folds", description=__doc__)
    parser.add_argument("--entries", type=int, default=20_000, help="entries per mixed log")
    parser.add_argument("--ruleset", choices=sorted(SOURCES), action="append", help="default: both")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each scenario")
    args = parser.parse_args(argv)
    print(f"{RULES_BUILD}", flush=True)
    with tempfile.TemporaryDirectory(prefix="siege-folds-") as data_dir, EmbeddedServer(Path(data_dir)) as s:
        store = RedisEventStore(connect(s.url))
        for _ in range(args.repeat):
            for ruleset in args.ruleset or sorted(SOURCES):
                for row in fold_rows(store, ruleset, args.entries):
                    print(f"| {row.measure} | {row.result} | {row.bar} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
