"""`new_table`: the worked examples run against every way of folding a battle (pure rules, later HTTP)."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory


@pytest.fixture(params=["rules", "http"])
def new_table(request: pytest.FixtureRequest, rules_table: TableFactory) -> TableFactory:
    """`new_table(ruleset, options=None) -> Table`; examples only use `table.send` and its outcomes."""
    if request.param == "rules":
        return rules_table
    if request.param == "http":
        http_table: TableFactory = request.getfixturevalue("http_table")
        return http_table
    raise NotImplementedError(request.param)
