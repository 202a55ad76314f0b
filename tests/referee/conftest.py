"""The builds the differential tests compare, and the logs the rules tests play (recorded once a run)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.referee.builds import ROOT, FoldServer, Referees, fallback
from workers import rules_build

# the tests of the rules themselves: run again under the compiled build, their logs recorded for the others
RULES_TESTS = ["tests/rules", "tests/examples", "tests/core/test_frozen.py", "tests/core/test_codec.py"]


def compiled_build() -> Path:
    """The compiled build `make test` writes; missing or stale, a failure on CI and a skip elsewhere."""
    build = rules_build.default_build()
    problem = rules_build.unusable(rules_build.sources(), build)
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must test every shipped build: {problem}")
        pytest.skip(problem)
    return build


@pytest.fixture(scope="session")
def build() -> Path:
    return compiled_build()


@pytest.fixture
def referees(build: Path, record_property: Any) -> Iterator[Referees]:
    """The pure Python and the compiled build, each proven to run only its own modules."""
    servers = [FoldServer("pure"), FoldServer("compiled", build)]
    for server in servers:
        record_property(f"rules.fold ({server.kind})", server.fold_file)
        assert fallback(server, build) == [], f"the {server.kind} build fell back: {fallback(server, build)}"
    judges = Referees(servers)
    yield judges
    judges.close()


@pytest.fixture(scope="session")
def recorded(build: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The rules tests run under the compiled build (`-p tests.compiled_rules`), every log they play
    recorded (`-p tests.referee.recording`); the run's header names the file `rules.fold` came from."""
    logs = tmp_path_factory.mktemp("recorded")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["SIEGE_RECORD_LOGS"] = str(logs)
    command = [sys.executable, "-m", "pytest", "-p", "tests.compiled_rules", "-p", "tests.referee.recording"]
    command += ["-p", "no:xdist", "-p", "no:cacheprovider", *RULES_TESTS]
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    lines = [json.loads(line) for path in sorted(logs.glob("*.jsonl")) for line in path.open()]
    return {"run": run, "logs": lines}
