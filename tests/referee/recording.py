"""The logs the rules tests play, recorded for folding again elsewhere (the differential test, the golden
corpus): `pytest -p tests.referee.recording` with SIEGE_RECORD_LOGS=DIR writes every `RulesTable` a test
made as one JSON line of DIR/<xdist worker>.jsonl once the test ends."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from rules.fold import Entry

SETTING = "SIEGE_RECORD_LOGS"
_tables: list[Any] = []  # the RulesTables of the running test, in the order they were made


def enabled() -> bool:
    return bool(os.environ.get(SETTING))


def made(table: Any) -> None:
    """Called by each new `RulesTable`: kept until its test ends, only while recording."""
    if enabled():
        _tables.append(table)


def log_line(test: str, ruleset: str, entries: list[Entry]) -> dict[str, Any]:
    """A recorded log: the test that played it and its entries as the fold reads them (hashes aside)."""
    return {
        "test": test,
        "ruleset": ruleset,
        "entries": [
            {"version": e.version, "type": e.type, "data": dict(e.data), "dice": dict(e.dice)}
            for e in entries
        ],
    }


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    if not enabled():
        return
    tables, _tables[:] = list(_tables), []
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    path = Path(os.environ[SETTING]) / f"{worker}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        for table in tables:
            out.write(json.dumps(log_line(item.nodeid, table.ruleset, table.entries), sort_keys=True) + "\n")
