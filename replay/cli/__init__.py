"""`siege`: verify an export with no server; export, audit and replay battles of a running deployment
(`REDIS_URL`). Long work shows a progress bar on standard error, so standard output stays the result."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from replay.audit import MAX_ENTRIES
from replay.cli.report import render_audit, render_verify
from replay.verify import PASSES, TICK, file_lines
from replay.verify import verify as verify_export

app = typer.Typer(no_args_is_help=True, add_completion=False, help=__doc__)
err = Console(stderr=True)
out = Console()
JsonFlag = Annotated[bool, typer.Option("--json", help="print the report as JSON")]
UNUSABLE = 2


def progress(unit: str) -> Progress:
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn(unit)]
    return Progress(*columns, TimeRemainingColumn(), console=err, transient=True)


@app.command()
def verify(
    file: Annotated[Path, typer.Argument(help="an export: JSON Lines of CloudEvents")],
    as_json: JsonFlag = False,
) -> None:
    """Check an export offline: hash chain, dice commitment, every stream die, every outcome re-folded.
    Exit 0 verified, 1 tampered, 2 unusable or unsupported (pinned to rules this release does not fold)."""
    try:
        size = file.stat().st_size
    except OSError as error:
        err.print(f"unusable: cannot read {file}: {error.strerror}")
        raise typer.Exit(UNUSABLE) from None
    with progress("bytes") as bar:
        task = bar.add_task("verifying", total=PASSES * size)
        report = verify_export(file_lines(file, lambda read: bar.advance(task, read)))
    if as_json:
        print(json.dumps(report.wire(), indent=2))
    else:
        render_verify(out, report)
    raise typer.Exit(report.exit_code)


@app.command()
def export(
    battle_id: str,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="file to write (default: stdout)")
    ] = None,
) -> None:
    """Write a battle of the deployment as JSON Lines of CloudEvents, one per version."""
    from replay.export import export_lines

    store = _store()
    head = _head(store, battle_id)
    target = output.open("wb") if output else sys.stdout.buffer
    try:
        with progress("versions") as bar:
            task = bar.add_task(f"exporting {battle_id}", total=head)
            for n, line in enumerate(export_lines(store, battle_id, upto=head), 1):
                target.write(line)
                if n % TICK == 0 or n == head:
                    bar.update(task, completed=n)
    finally:
        if output:
            target.close()
    err.print(f"exported {head} versions of {battle_id}" + (f" to {output}" if output else ""))


@app.command()
def audit(
    battle_id: str,
    as_json: JsonFlag = False,
    max_entries: Annotated[
        int, typer.Option(envvar="SIEGE_AUDIT_MAX_ENTRIES", min=1, help="versions checked at most")
    ] = MAX_ENTRIES,
) -> None:
    """Audit a battle of the deployment: its chain, a fresh replay against its outcomes, and its dice.
    Exit 0 clean, 1 failed, 2 unsupported (pinned to rules this release does not fold)."""
    from replay.audit import audit as audit_battle

    store = _store()
    _head(store, battle_id)
    created = store.entry(battle_id, 1)
    assert created is not None
    with err.status(f"auditing {battle_id}"):
        report = audit_battle(store, battle_id, created, max_entries)
    if as_json:
        print(json.dumps(report, indent=2))
    else:
        render_audit(out, battle_id, report)
    raise typer.Exit(0 if report["ok"] else UNUSABLE if report["status"] == "unsupported" else 1)


@app.command()
def replay(
    battle_id: str,
    mode: Annotated[
        str, typer.Option(help="rebuild the projection, or verify it against a fresh fold")
    ] = "verify",
    timeout: Annotated[float, typer.Option(help="seconds to wait for the job")] = 3600.0,
) -> None:
    """Run a replay job of the deployment's workers and wait for its result."""
    from replay import jobs

    if mode not in ("rebuild", "verify"):
        err.print("unusable: --mode is rebuild or verify")
        raise typer.Exit(UNUSABLE)
    store, queue = _store(), _queue()
    _head(store, battle_id)
    try:
        job_id = jobs.start(queue, battle_id, mode)
    except jobs.QueueUnavailable as problem:
        err.print(f"unusable: {problem}")
        raise typer.Exit(UNUSABLE) from None
    view = _wait(queue, battle_id, job_id, timeout)
    print(json.dumps(view, indent=2))
    raise typer.Exit(0 if view["status"] == "finished" else 1)


def _wait(queue: Any, battle_id: str, job_id: str, timeout: float) -> dict[str, Any]:
    from replay import jobs

    deadline = time.monotonic() + timeout
    with err.status(f"replay job {job_id} queued") as status:
        while True:
            view = jobs.view(queue, battle_id, job_id)
            if view["status"] in ("finished", "failed") or time.monotonic() > deadline:
                return view
            status.update(f"replay job {job_id} {view['status']}")
            time.sleep(0.2)


def _store() -> Any:
    from eventstore.config import StoreConfig, connect
    from eventstore.redis_store import RedisEventStore

    url = StoreConfig.from_env().redis_url
    if not url:
        err.print("unusable: set REDIS_URL to the deployment's event store")
        raise typer.Exit(UNUSABLE)
    return RedisEventStore(connect(url))


def _queue() -> Any:
    import redis

    from eventstore.config import StoreConfig

    config = StoreConfig.from_env()
    return redis.Redis.from_url(config.queue_redis_url or config.redis_url or "")


def _head(store: Any, battle_id: str) -> int:
    from eventstore.errors import UnknownBattle

    try:
        version: int = store.head(battle_id).version
    except UnknownBattle:
        err.print(f"unusable: no battle {battle_id} in the event store")
        raise typer.Exit(UNUSABLE) from None
    return version


def main() -> None:
    app()
