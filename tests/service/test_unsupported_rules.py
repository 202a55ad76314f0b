"""A battle pinned to rules this release does not fold (DESIGN §3.5: written by another release, a newer one
sharing the store or sending its export) is never reported as tampered. `siege verify` says `unsupported`
(exit 2), import is a 422 `import-unsupported-rules`, the audit answers `status: unsupported` without a
replay, and the workers refuse to fold it: each names the rules version it needs and those this release
folds. Its chain and its dice depend on no rules version, so they are still checked."""

from __future__ import annotations

import json
import logging
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
from replay.folds import UnsupportedRules
from rules.registry import get_ruleset
from tests.fixtures.redis_server import Backend
from tests.service.exports import (
    TAMPERS,
    UNSUPPORTED,
    Lines,
    event,
    exported,
    played,
    repinned,
    written_by_another_release,
)
from tests.service.helpers import assert_problem
from workers.drain import drain_pending
from workers.projection import project_battle

NDJSON = "application/x-ndjson"
runner = CliRunner()


def supported(pins: dict[str, str]) -> list[str]:
    """What this release folds of the pinned ruleset, as `Ruleset.rules_versions` says (none of chess)."""
    return list(get_ruleset("epic").rules_versions) if pins.get("ruleset", "epic") == "epic" else []


def another_release(client: FlaskClient, store: Backend, pins: dict[str, str]) -> Lines:
    """A concluded epic battle with stream dice, as a release folding the rules `pins` names exports it."""
    return repinned(exported(client, played(client, store)), pins)


def stream_rolls(lines: Lines) -> int:
    return sum(
        1
        for version in range(1, len(lines) + 1)
        for roll in event(lines, version)["data"]["outcome"]["rolls"]
        if roll["source"] == "stream"
    )


def stored(store: Backend, lines: Lines, *, outcomes: bool = True) -> tuple[str, dict[str, str]]:
    """The battle in this store as the other release wrote it: its id and a GM token's header."""
    battle_id, token = written_by_another_release(store, lines, outcomes=outcomes)
    return battle_id, {"Authorization": f"Bearer {token}"}


# --- siege verify ------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(UNSUPPORTED))
def test_verify_says_unsupported_naming_the_rules_needed_and_exits_2(
    client: FlaskClient, redis_store: RedisEventStore, tmp_path: Path, case: str
) -> None:
    pins = UNSUPPORTED[case]
    lines = another_release(client, redis_store, pins)
    path = tmp_path / "battle.jsonl"
    path.write_bytes(b"".join(lines))

    said = runner.invoke(app, ["verify", str(path)])
    report = json.loads(runner.invoke(app, ["verify", str(path), "--json"]).stdout)

    assert said.exit_code == 2, said.output
    assert said.stdout.startswith(f"UNSUPPORTED version 1: unsupported: the battle needs rules version "
                                  f"{pins['rules_version']}"), said.stdout  # fmt: skip
    assert "TAMPERED" not in said.stdout
    assert (report["status"], report["ok"], report["finding"]["kind"]) == (
        "unsupported",
        False,
        "unsupported",
    )
    assert report["rules_version"] == pins["rules_version"]
    assert report["supported"] == supported(pins)
    assert report["dice"]["commitment_ok"] is True  # the dice were checked all the same
    assert report["dice"]["checked_rolls"] == stream_rolls(lines) > 0
    assert report["outcomes"]["compared"] == 0  # and no outcome was judged by other rules


@pytest.mark.parametrize(("tamper", "kind"), [("edited_stream_die", "dice"), ("edited_data", "chain")])
def test_a_forged_die_or_a_broken_chain_is_tampered_whatever_the_rules(
    client: FlaskClient, redis_store: RedisEventStore, tmp_path: Path, tamper: str, kind: str
) -> None:
    make = TAMPERS[tamper][0]
    path = tmp_path / "battle.jsonl"
    path.write_bytes(
        b"".join(make(another_release(client, redis_store, UNSUPPORTED["unknown_rules_version"])))
    )

    said = runner.invoke(app, ["verify", str(path), "--json"])

    assert said.exit_code == 1, said.output
    report = json.loads(said.stdout)
    assert (report["status"], report["finding"]["kind"]) == ("tampered", kind)
    assert report["rules_version"] == "epic-0"  # the rules it needs are named all the same


# --- POST /battles/import ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(UNSUPPORTED))
def test_import_is_a_422_import_unsupported_rules_and_creates_nothing(
    client: FlaskClient, redis_store: RedisEventStore, case: str
) -> None:
    pins = UNSUPPORTED[case]
    lines = another_release(client, redis_store, pins)
    before = len(list(redis_store.battle_ids()))

    answer = client.post("/battles/import", data=b"".join(lines), content_type=NDJSON)

    problem = assert_problem(answer, 422, "import-unsupported-rules")
    assert (problem["rules_version"], problem["supported"]) == (pins["rules_version"], supported(pins))
    assert problem["ruleset"] == pins.get("ruleset", "epic")
    assert pins["rules_version"] in problem["detail"]
    assert len(list(redis_store.battle_ids())) == before


# --- GET /battles/{id}/audit and siege audit ---------------------------------------------------------


def test_the_audit_does_not_replay_it_and_says_which_rules_it_needs(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    lines = another_release(client, redis_store, UNSUPPORTED["unknown_rules_version"])
    battle_id, gm = stored(redis_store, lines)

    report = client.get(f"/battles/{battle_id}/audit", headers=gm).get_json()

    assert (report["ok"], report["status"]) == (False, "unsupported")
    assert (report["ruleset"], report["rules_version"]) == ("epic", "epic-0")
    assert report["supported"] == list(get_ruleset("epic").rules_versions)
    assert report["replay"] == {
        "ok": False, "compared": 0, "pending": 0, "first_difference": None, "skipped": True
    }  # fmt: skip
    assert report["chain"]["ok"] is True and report["chain"]["checked"] == len(lines)
    assert report["dice"] == {
        "verifiable": True, "commitment_ok": True, "checked_rolls": stream_rolls(lines), "mismatches": []
    }  # fmt: skip


def test_the_audit_still_finds_a_forged_stored_die(client: FlaskClient, redis_store: RedisEventStore) -> None:
    lines = TAMPERS["edited_stream_die"][0](another_release(client, redis_store, {"rules_version": "epic-0"}))
    battle_id, gm = stored(redis_store, lines)

    report = client.get(f"/battles/{battle_id}/audit", headers=gm).get_json()

    assert (report["ok"], report["status"], report["replay"]["skipped"]) == (False, "failed", True)
    assert len(report["dice"]["mismatches"]) == 1 and report["replay"]["first_difference"] is None


@pytest.mark.usefixtures("job_env")  # REDIS_URL names the test server for the command line
def test_siege_audit_says_unsupported_and_exits_2(client: FlaskClient, redis_store: RedisEventStore) -> None:
    battle_id, _gm = stored(redis_store, another_release(client, redis_store, {"rules_version": "epic-0"}))

    said = runner.invoke(app, ["audit", battle_id])

    assert said.exit_code == 2, said.output
    assert said.stdout.startswith(f"UNSUPPORTED audit of {battle_id}")
    folds = ", ".join(get_ruleset("epic").rules_versions)  # the earlier versions it keeps too
    assert f"not replayed: it needs epic epic-0, this release folds {folds}" in said.stdout.replace("\n", " ")


# --- the workers: projection and replay jobs ---------------------------------------------------------


def test_the_projection_refuses_it_logs_why_and_writes_nothing(
    client: FlaskClient, redis_store: RedisEventStore, caplog: pytest.LogCaptureFixture
) -> None:
    lines = another_release(client, redis_store, {"rules_version": "epic-0"})
    battle_id, _gm = stored(redis_store, lines, outcomes=False)
    redis_store.mark_pending(battle_id)

    with caplog.at_level(logging.ERROR, logger="siege.projection"):
        drained = drain_pending(redis_store, redis_store, redis_store, requeue=lambda: None, linger_s=0.0)
    with pytest.raises(UnsupportedRules, match="needs rules version epic-0 of epic"):
        project_battle(redis_store, redis_store, battle_id)

    assert (drained.unsupported, drained.failed) == (1, 0)  # the battle it was exported from is folded
    assert f"battle {battle_id} needs rules version epic-0 of epic" in caplog.text
    assert redis_store.projection(battle_id) is None and redis_store.outcomes(battle_id, limit=100) == []


@pytest.mark.usefixtures("job_env")  # the worker reads the test server's address from the environment
@pytest.mark.parametrize("mode", ["rebuild", "verify"])
def test_a_replay_job_fails_saying_which_rules_it_needs_and_keeps_the_outcomes(
    client: FlaskClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any], mode: str
) -> None:
    battle_id, gm = stored(redis_store, another_release(client, redis_store, {"rules_version": "epic-0"}))
    before = redis_store.outcomes(battle_id, limit=100)
    started = client.post(f"/battles/{battle_id}/replays", json={"mode": mode}, headers=gm)
    assert started.status_code == 202, started.get_json()

    queue = Queue(REPLAY.queue, connection=redis_client, serializer=JSONSerializer)
    SimpleWorker([queue], connection=redis_client, serializer=JSONSerializer).work(burst=True)
    view = client.get(started.headers["Location"], headers=gm).get_json()

    assert view["status"] == "failed", view
    assert "UnsupportedRules" in view["error"] and "needs rules version epic-0 of epic" in view["error"]
    assert redis_store.outcomes(battle_id, limit=100) == before  # a rebuild deleted nothing


# --- time travel and previews -------------------------------------------------------------------------


def test_time_travel_and_previews_answer_409_unsupported_rules_instead_of_folding_with_other_rules(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    """Every reader folds through `rules.fold`, which refuses a battle pinned to rules it does not have at
    version 1: the state at an earlier version and a preview are not computed with today's rules."""
    lines = another_release(client, redis_store, UNSUPPORTED["unknown_rules_version"])
    battle_id, gm = stored(redis_store, lines)

    at = client.get(f"/battles/{battle_id}/state?at=3", headers=gm)
    preview = client.post(f"/battles/{battle_id}/previews", json={"type": "advance_phase"}, headers=gm)

    for answer in (at, preview):
        problem = assert_problem(answer, 409, "unsupported-rules")
        assert (problem["ruleset"], problem["rules_version"]) == ("epic", "epic-0")
        assert problem["supported"] == list(get_ruleset("epic").rules_versions)
