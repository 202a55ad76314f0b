"""Shared fixtures: a battle table over the pure fold (the HTTP table joins it once the API exists)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from tests.harness import RulesTable, Table

TableFactory = Callable[..., Table]


@pytest.fixture
def rules_table() -> TableFactory:
    """`rules_table("epic", options={...})` → a fresh battle folded in-process."""

    def make(ruleset: str, options: Mapping[str, Any] | None = None) -> Table:
        return RulesTable(ruleset, options)

    return make
