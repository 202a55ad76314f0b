"""Shared fixtures: the rules table here; the Redis server, app and process fixtures in tests/fixtures/."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from tests.harness import RulesTable, Table

pytest_plugins = ["tests.fixtures.redis_server", "tests.fixtures.app", "tests.fixtures.processes"]

TableFactory = Callable[..., Table]


@pytest.fixture
def rules_table() -> TableFactory:
    """`rules_table("epic", options={...})` → a fresh battle folded in-process."""

    def make(ruleset: str, options: Mapping[str, Any] | None = None) -> Table:
        return RulesTable(ruleset, options)

    return make


# what mutmut names the runs that test no mutant (the clean run, the test map, the listing)
NO_MUTANT = frozenset({"", "stats", "fail", "list_all_tests", "mutant_generation"})
# rules/' memos that are plain dicts, not functools caches: record type -> its copier, its encoder, its walker
MEMOS = (("rules.frozen", "_copiers"), ("rules.codec", "_ENCODERS"), ("rules.preview_fields", "_walkers"))


def pytest_sessionstart(session: Any) -> None:
    """Under `make mutation`, each mutant's run is forked from a process that collected the tests with the
    rules unmutated: what rules/ memoised then (plans, builders, copiers, hints) would answer for the mutant
    and hide it. Such a run forgets those memos first; any other run has none to forget."""
    if os.environ.get("MUTANT_UNDER_TEST", "") not in NO_MUTANT:
        forget_memos()


def pytest_runtest_setup(item: Any) -> None:
    """mutmut maps each rules function to the tests that call it (its stats run) and runs a mutant with those
    tests alone: a function called only while a memo is built (a builder's checks) would be credited to the
    first test that built it and never tested by the others, so the stats run forgets the memos before each
    test."""
    if os.environ.get("MUTANT_UNDER_TEST", "") == "stats":
        forget_memos()


def forget_memos() -> None:
    for name, module in list(sys.modules.items()):
        if name == "rules" or name.startswith("rules."):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()
    for owner, memo in MEMOS:
        found = getattr(sys.modules.get(owner), memo, None)
        if isinstance(found, dict):
            found.clear()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """(tests/referee) Which file each build's `rules.fold` came from, as the differential tests found it."""
    seen = {
        (name, value)
        for reports in terminalreporter.stats.values()
        for report in reports
        for name, value in getattr(report, "user_properties", ())
        if str(name).startswith("rules.fold")
    }
    for name, value in sorted(seen):
        terminalreporter.write_line(f"one referee: {name} from {value}")
