"""The golden corpus (DESIGN §3.5): every export under tests/golden/<rules_version>/ verifies with `siege
verify`, imports through `POST /battles/import` and, folded again by the workers' code, exports the very
same bytes (but the few whose logs hold a command no API took: NOT_API_INPUT). A change that alters any
recorded outcome fails here unless it adds a new rules version."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from typer.testing import CliRunner

from eventstore.redis_store import RedisEventStore
from replay.cli import app
from rules.fold import CONCLUDE, UNDO
from rules.registry import get_ruleset, ruleset_names
from tests.golden.corpus import Feature, features, prepared, read_jsonl
from tests.golden.write import write
from tests.service.helpers import assert_problem, fold

GOLDEN = Path(__file__).parent
REPO = GOLDEN.parent.parent
FILES = sorted(GOLDEN.glob("*/*.jsonl"))
NDJSON = "application/x-ndjson"
CURRENT = {get_ruleset(name).rules_version: name for name in ruleset_names()}
# reason codes of a ruleset that no log can make its rules answer, each with why (none today: every code
# is reachable by some log, `unknown_command` by a logged type the ruleset does not know)
UNPRODUCIBLE: dict[str, dict[str, str]] = {name: {} for name in ruleset_names()}

# files holding a command no release's API ever took: a rules test or a hand-written extra fed it to the
# fold directly, to show the fold's own refusal (an unknown type, an empty or repeated list, a wind level
# out of the enum). They verify, since the rules refuse the command as they should; an import, which takes
# only what the API takes (docs/export-format.md §7.5), refuses each at that command's line
NOT_API_INPUT: dict[str, int] = {
    "epic-1/epic-extra-climb-fight-client-seed-undo-unknown-command": 8,
    "epic-2/epic-extra-climb-fight-client-seed-undo-unknown-command": 8,
    "pathfinder-1/pathfinder-bridge-test_refusals_in_order": 17,
    "pathfinder-1/pathfinder-crush-test_refusals_in_order": 14,
    "pathfinder-1/pathfinder-extra-ballista-client-seed-undo-unknown-command-after-conclude": 9,
    "pathfinder-1/pathfinder-extra-v1-set-wind-refused-then-set": 2,
    "pathfinder-2/pathfinder-bridge-test_refusals_in_order": 17,
    "pathfinder-2/pathfinder-crush-test_refusals_in_order": 14,
    "pathfinder-2/pathfinder-extra-ballista-client-seed-undo-unknown-command-after-conclude": 9,
}
IMPORTED = [path for path in FILES if f"{path.parent.name}/{path.stem}" not in NOT_API_INPUT]

runner = CliRunner()


def ruleset_of(rules_version: str) -> str:
    owners = [name for name in ruleset_names() if rules_version in get_ruleset(name).rules_versions]
    assert len(owners) == 1, f"{rules_version} is a rules version of {owners}"
    return owners[0]


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def carried(path: Path) -> list[dict[str, Any]]:
    """Each line's log entry and outcome (the CloudEvent's data)."""
    return [json.loads(line)["data"] for line in lines_of(path)]


def name(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", FILES, ids=name)
def test_siege_verify_says_verified(path: Path) -> None:
    rules_version = path.parent.name
    result = runner.invoke(app, ["verify", str(path)])

    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("VERIFIED"), result.stdout
    assert f"{ruleset_of(rules_version)} {rules_version}" in result.stdout  # pinned as its folder says
    assert "matches its commitment" in result.stdout  # concluded: every stream die was recomputed
    assert carried(path)[-1]["type"] == CONCLUDE


@pytest.mark.parametrize("rules_version", sorted(CURRENT))
def test_the_installed_siege_command_verifies_a_golden_file(rules_version: str) -> None:
    path = sorted((GOLDEN / rules_version).glob("*.jsonl"))[0]
    script = Path(sys.executable).with_name("siege")  # the console script `pip install` wrote
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # this checkout's code, whichever one is installed

    done = subprocess.run(
        [str(script), "verify", str(path), "--json"], capture_output=True, env=env, timeout=120, check=False
    )

    assert done.returncode == 0, done.stderr.decode()
    report = json.loads(done.stdout)
    assert (report["status"], report["rules_version"]) == ("verified", rules_version)
    assert report["outcomes"] == {"compared": len(lines_of(path)), "pending": 0}


@pytest.mark.parametrize("path", IMPORTED, ids=name)
def test_it_imports_and_folded_again_exports_the_same_bytes(
    client: FlaskClient, redis_store: RedisEventStore, path: Path
) -> None:
    lines = lines_of(path)
    answer = client.post("/battles/import", data=b"".join(lines), content_type=NDJSON)
    assert answer.status_code == 201, answer.get_json()
    copy, gm = answer.get_json()["id"], {"Authorization": f"Bearer {answer.get_json()['gm_token']}"}

    fold(redis_store, copy)  # the workers' fold, as after the projection job the import scheduled
    again = client.get(f"/battles/{copy}/export", headers=gm)

    assert again.status_code == 200
    source = json.loads(lines[0])["source"]
    # the copy is another battle, so its events name it as their source; every other byte is the file's
    expected = [line.replace(f'"source": "{source}"'.encode(), f'"source": "/battles/{copy}"'.encode())
                for line in lines]  # fmt: skip
    assert again.get_data().splitlines(keepends=True) == expected


@pytest.mark.parametrize("path", [GOLDEN / f"{n}.jsonl" for n in NOT_API_INPUT], ids=name)
def test_a_log_holding_a_command_the_api_refuses_verifies_but_does_not_import(
    client: FlaskClient, redis_store: RedisEventStore, path: Path
) -> None:
    line = NOT_API_INPUT[name(path)]
    before = len(list(redis_store.battle_ids()))
    answer = client.post("/battles/import", data=path.read_bytes(), content_type=NDJSON)

    problem = assert_problem(answer, 422, "import-invalid")
    assert (problem["version"], problem["line"], problem["kind"]) == (line, line, "refused"), problem
    assert problem["reason"] == "command_refused", problem
    assert carried(path)[line - 1]["outcome"]["status"] == "rejected"  # the rules refused it too
    assert len(list(redis_store.battle_ids())) == before


def test_every_rules_version_has_a_golden_corpus_and_only_those() -> None:
    versions = {version for name in ruleset_names() for version in get_ruleset(name).rules_versions}
    folders = {path.parent.name for path in FILES}
    assert folders == versions
    assert not [p for p in GOLDEN.iterdir() if p.is_dir() and p.name not in versions | {"__pycache__"}]


@pytest.mark.parametrize("rules_version", sorted(CURRENT))
def test_the_current_corpus_covers_every_command_and_every_reason(rules_version: str) -> None:
    ruleset = get_ruleset(CURRENT[rules_version])
    shown: set[Feature] = set()
    for path in sorted((GOLDEN / rules_version).glob("*.jsonl")):
        events = carried(path)
        battle = {"ruleset": ruleset.name, "entries": events}
        shown |= features(battle, [event["outcome"] for event in events])

    applied = {f[1] for f in shown if f[0] == "applied"}
    assert applied >= {*ruleset.commands, UNDO, CONCLUDE}, "a command is never applied"
    reasons = {f[1] for f in shown if f[0] == "reason"}
    assert set(ruleset.reasons) - reasons == set(UNPRODUCIBLE[ruleset.name])
    assert {("rejected", CONCLUDE), ("dice", "client"), ("dice", "stream"), ("client_seed",)} <= shown
    assert {f[1] for f in shown if f[0] == "option"} == set(ruleset.default_options)  # every house rule


def test_the_writer_writes_the_hand_written_battles_again_byte_for_byte(tmp_path: Path) -> None:
    extras = prepared(read_jsonl([GOLDEN / "extra_logs.jsonl"]))
    written = write(extras, tmp_path, select=False, replace=False)

    for version, paths in written.items():
        for path in paths:
            assert path.read_bytes() == (GOLDEN / version / path.name).read_bytes(), path.name
    assert sum(len(paths) for paths in written.values()) == len(extras)
