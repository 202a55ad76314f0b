"""`python -m bench [--quick]`: run the bounded benchmarks docs/performance.md describes and
write bench/results/report.md."""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from bench import RULES_BUILD, ack, browser_verify, footprint, measures, previews, streams
from bench.measures import Row
from bench.stack import Bench, running

RESULTS = Path(__file__).resolve().parent / "results"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run in about a minute")
    parser.add_argument("--seconds", type=float, help="load duration per run (default 10; quick 3)")
    parser.add_argument("--battles", type=int, help="battles the ingest load spreads over (default 1000)")
    parser.add_argument("--entries", type=int, help="entries of the hot battle (default 100000; quick 10000)")
    parser.add_argument(
        "--export-entries",
        type=int,
        help="entries of the exported and verified battle (default 1000000; quick 20000)",
    )
    parser.add_argument("--workers", type=int, default=2, help="RQ workers running during the load")
    args = parser.parse_args(argv)
    seconds = args.seconds or (3.0 if args.quick else 10.0)
    battles = args.battles or (100 if args.quick else 1000)
    entries = args.entries or (10_000 if args.quick else 100_000)
    exported = args.export_entries or (20_000 if args.quick else 1_000_000)
    RESULTS.mkdir(exist_ok=True)
    with (
        tempfile.TemporaryDirectory(prefix="siege-bench-") as data_dir,
        running(Path(data_dir), args.workers, RESULTS / "processes.log") as bench,
    ):
        memory_commands = 2_000 if args.quick else 10_000
        rows = run_all(
            bench, seconds=seconds, battles=battles, entries=entries, memory_commands=memory_commands
        )
        say(f"export and verify: a {exported:,}-entry battle")
        rows += measures.export_verify(bench, exported, Path(data_dir))
        in_browser = 2_000 if args.quick else 20_000
        say(f"verify in the browser: a {in_browser:,}-entry export, beside siege verify")
        rows += browser_verify.measure(bench, in_browser, Path(data_dir))
    say("replica acknowledgement: appends on one node and on a replicated cluster, with and without it")
    with tempfile.TemporaryDirectory(prefix="siege-bench-ack-") as ack_dir:
        rows += ack.rows(ack.measure(Path(ack_dir), quick=args.quick))
    report = render(rows, seconds=seconds, workers=args.workers)
    (RESULTS / "report.md").write_text(report)
    print(report)
    return 0


def run_all(
    bench: Bench, *, seconds: float, battles: int, entries: int, memory_commands: int = 2_000
) -> list[Row]:
    say(f"creating {battles} battles")
    spread = measures.create_battles(bench, battles)
    say("ingest: baseline, then the service")
    rows, max_rate = measures.ingest(bench, spread, seconds)
    say("ingest: the API alone, its fold processes paused, then caught up")
    rows += measures.api_alone(bench, spread, seconds, measures.baseline_rate(rows))
    say("ingest: one battle with its GM token")
    rows.append(footprint.one_battle(bench, seconds, measures.baseline_rate(rows)))
    rows.append(measures.catch_up(bench, spread))
    say("Prefer: wait latency at half the max ingest")
    rows.append(measures.wait_latency(bench, spread, max_rate / 2, seconds))
    rows += streams.measure(bench, spread, seconds)
    hot_id, hot_token = spread[0]
    say(f"fold: {entries} entries on one battle")
    rows.append(measures.fold(bench, hot_id, entries))
    rows.append(measures.state_at(bench, hot_id, hot_token, samples=200))
    say(f"fold: mixed epic and pathfinder logs of {args_mixed(entries)} entries")
    rows += measures.fold_mixed(bench, "epic", args_mixed(entries))
    rows += measures.fold_mixed(bench, "pathfinder", args_mixed(entries))
    say("replay memory")
    rows.append(measures.replay_memory(bench, hot_id))
    say(f"Redis bytes per command: {memory_commands:,} commands with a key and without")
    rows += footprint.bytes_per_command(bench, memory_commands)
    say("previews: every command the spec's examples send with dice")
    rows.append(previews.row())
    return rows


def args_mixed(entries: int) -> int:
    """Mixed logs fold several times slower than the hot battle: 1/20 of its entries keeps them short."""
    return max(entries // 20, 1_000)


def render(rows: list[Row], *, seconds: float, workers: int) -> str:
    lines = [
        "# Benchmark report",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, Python {platform.python_version()}",
        f"gunicorn as service/gunicorn_conf.py sets it, {workers} RQ workers and the reconciler running;",
        f"{seconds:.0f} s per load run; {RULES_BUILD} (workers and in-process folds).",
        "Absolute figures vary from machine to machine; the ratio is measured in one run.",
        "",
        "| measure | result | bar |",
        "|---|---|---|",
        *(f"| {r.measure} | {r.result} | {r.bar} |" for r in rows),
        "",
    ]
    return "\n".join(lines)


def say(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
