"""Shared fixtures: the rules table here; the Redis server, app and process fixtures in tests/fixtures/."""

from __future__ import annotations

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
