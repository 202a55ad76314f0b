"""`python -m bench.profile [--one] [--spy api|worker] [-o FILE]`: where ingest's CPU goes.

Starts the bench stack, loads the baseline and then the service with wrk (`-t2 -c16`, 6 s each), and prints
the CPU seconds each process of this machine used meanwhile, per request. With `--spy`, py-spy (not a
dependency: `pip install py-spy`) samples one gunicorn worker of the service, or one RQ worker, while the
service is loaded, holding the GIL only (`--gil`), into FILE in py-spy's raw format; bench/profile_top.py
reads it as inclusive percentages."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from bench import cpu, measures
from bench.load import Target, throughput
from bench.stack import Bench, bind_of, running

SECONDS = 6.0
SAMPLES_PER_S = 250


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile", description=__doc__)
    parser.add_argument("--one", action="store_true", help="one battle with its GM token (default: 100)")
    parser.add_argument("--spy", choices=("api", "worker"), help="sample this process with py-spy")
    parser.add_argument("-o", "--output", default="profile.txt", help="py-spy's raw output")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="siege-profile-") as data_dir:
        log = Path(data_dir) / "processes.log"
        with running(Path(data_dir), 2, log) as bench:
            battles = measures.create_battles(bench, 1 if args.one else 100)
            targets = [Target(f"/battles/{b}/commands", token) for b, token in battles]
            _load("baseline", bench.baseline_url, [Target("/xadd", "none")], None, args.output)
            _load("service", bench.service_url, targets, _spied(bench, args.spy), args.output)
    return 0


def _load(name: str, url: str, targets: list[Target], spied: str | None, output: str) -> None:
    spy = None
    if spied is not None and shutil.which("py-spy"):
        spy = subprocess.Popen(
            ["py-spy", "record", "-p", spied, "-d", f"{SECONDS:.0f}", "-r", str(SAMPLES_PER_S), "--gil",
             "--nonblocking", "--format", "raw", "-o", output],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
    before, started = cpu.processes(), time.monotonic()
    run = throughput(url, targets, measures.COMMAND, SECONDS)
    after, wall = cpu.processes(), time.monotonic() - started
    if spy is not None:
        spy.wait()
    print(f"{name}: {run.rate:,.0f} req/s, {run.errors} non-2xx, {wall:.1f} s")
    used = sorted(((after[p][1] - before[p][1], after[p][0]) for p in after if p in before), reverse=True)
    for seconds, command in used[:8]:
        if seconds > 0.05:
            per_request = 1000 * seconds / max(run.requests, 1)
            print(f"  {seconds:6.2f} CPU s  {per_request:5.2f} ms/request  {command}")


def _spied(bench: Bench, which: str | None) -> str | None:
    """The pid of one service gunicorn worker (a child of the master bound to its port), or an RQ worker."""
    if which is None:
        return None
    rows = [line.split(None, 2) for line in _ps().splitlines()[1:] if len(line.split(None, 2)) == 3]
    if which == "worker":
        return next(pid for pid, _parent, command in rows if "workers.worker" in command)
    bind = bind_of(bench.service_url)
    masters = {pid for pid, _parent, command in rows if "gunicorn" in command and bind in command}
    return next(pid for pid, parent, _command in rows if parent in masters)


def _ps() -> str:
    return subprocess.run(["ps", "-eo", "pid,ppid,args"], capture_output=True, text=True, check=True).stdout


if __name__ == "__main__":
    raise SystemExit(main())
