"""The `siege` command line: `verify` with no server (exit 0 verified, 1 tampered, 2 unusable, each with a
one-line reason), and `export`, `audit`, `replay` against the deployment named by REDIS_URL."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from rq import Queue, SimpleWorker
from rq.serializers import JSONSerializer
from typer.testing import CliRunner

from eventstore.queues import REPLAY
from eventstore.redis_store import RedisEventStore
from replay.cli import app
from tests.service.exports import (
    TAMPERS,
    UNDONE,
    UNUSABLE,
    UNUSABLE_LINES,
    Lines,
    exported,
    line_of,
    played,
    played_undos,
)  # fmt: skip

runner = CliRunner()


def siege(*args: str) -> Any:
    return runner.invoke(app, list(args))


def written(tmp_path: Path, lines: Lines) -> str:
    path = tmp_path / "battle.jsonl"
    path.write_bytes(b"".join(lines))
    return str(path)


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
def test_verify_accepts_a_good_export_and_says_what_it_checked(
    client: FlaskClient, redis_store: RedisEventStore, tmp_path: Path, ruleset: str
) -> None:
    result = siege("verify", written(tmp_path, exported(client, played(client, redis_store, ruleset))))

    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("VERIFIED")
    assert "matches its commitment" in result.stdout


@pytest.mark.parametrize("case", ["one_undo", "undo_after_an_undo"])
def test_verify_reads_the_file_afresh_for_each_undo_it_folds_again(
    client: FlaskClient, redis_store: RedisEventStore, tmp_path: Path, case: str
) -> None:
    assert case in UNDONE
    result = siege("verify", written(tmp_path, exported(client, played_undos(client, redis_store, case))))

    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("VERIFIED")


@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_verify_names_the_first_bad_version_and_kind_of_a_tampered_export(
    client: FlaskClient, redis_store: RedisEventStore, tmp_path: Path, tamper: str
) -> None:
    make, version, kind = TAMPERS[tamper]
    lines = make(exported(client, played(client, redis_store)))

    result = siege("verify", written(tmp_path, lines))

    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines()[0].startswith(f"TAMPERED version {version(lines)}: {kind}: ")
    assert f"line {line_of(lines, version(lines))} of the file" in result.stdout


@pytest.mark.parametrize("case", sorted(UNUSABLE))
def test_verify_exits_2_on_a_file_it_cannot_judge(
    client: FlaskClient, redis_store: RedisEventStore, tmp_path: Path, case: str
) -> None:
    lines = UNUSABLE[case](exported(client, played(client, redis_store)))

    result = siege("verify", written(tmp_path, lines), "--json")

    assert result.exit_code == 2, result.output
    report = json.loads(result.stdout)
    assert report["status"] == "unusable" and report["finding"]["reason"]
    assert report["finding"]["line"] == UNUSABLE_LINES[case](lines)


def test_verify_exits_2_on_a_missing_file(tmp_path: Path) -> None:
    result = siege("verify", str(tmp_path / "nothing.jsonl"))
    assert result.exit_code == 2 and "cannot read" in result.output


@pytest.mark.usefixtures("job_env")  # REDIS_URL names the test server, for the CLI and the worker
def test_export_writes_what_the_http_export_serves(
    client: FlaskClient, redis_store: RedisEventStore, tmp_path: Path
) -> None:
    battle_id = played(client, redis_store)
    target = tmp_path / "cli.jsonl"

    result = siege("export", battle_id, "-o", str(target))

    assert result.exit_code == 0, result.output
    assert target.read_bytes() == b"".join(exported(client, battle_id))
    assert siege("verify", str(target)).exit_code == 0


@pytest.mark.usefixtures("job_env")  # REDIS_URL names the test server, for the CLI and the worker
def test_audit_reports_an_honest_battle_ok(client: FlaskClient, redis_store: RedisEventStore) -> None:
    battle_id = played(client, redis_store)

    result = siege("audit", battle_id, "--json")

    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ok"] is True
    assert siege("audit", "no-such-battle").exit_code == 2


@pytest.mark.usefixtures("job_env")  # REDIS_URL names the test server, for the CLI and the worker
def test_replay_runs_a_job_on_the_workers_and_prints_its_result(
    client: FlaskClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle_id = played(client, redis_store)
    results: list[Any] = []
    waiting = threading.Thread(
        target=lambda: results.append(siege("replay", battle_id, "--mode", "verify", "--timeout", "60")),
        daemon=True,
    )
    waiting.start()

    _work_one_replay(
        redis_client
    )  # a worker of the deployment, here in the main thread (rq installs signals)

    waiting.join(timeout=60)
    assert results and results[0].exit_code == 0, results and results[0].output
    view = json.loads(results[0].stdout)
    assert view["status"] == "finished" and view["mode"] == "verify" and view["result"]["ok"] is True


def _work_one_replay(client: redis.Redis[Any]) -> None:
    queue = Queue(REPLAY.queue, connection=client, serializer=JSONSerializer)
    for _ in range(600):
        if queue.count:
            SimpleWorker([queue], connection=client, serializer=JSONSerializer).work(burst=True)
            return
        time.sleep(0.05)
    raise AssertionError("the command line enqueued no replay job")
