"""`new_table`: the worked examples run against every way of folding a battle (pure rules, HTTP), and every
body they send is checked against the JSON Schema `GET /rulesets/{name}` publishes for its command."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rules.describe import describe
from rules.registry import get_ruleset
from tests.conftest import TableFactory
from tests.harness import Table


@cache
def body_validators(ruleset: str) -> dict[str, Draft202012Validator]:
    commands = describe(get_ruleset(ruleset))["commands"]
    return {name: Draft202012Validator(command["body"]) for name, command in commands.items()}


class SchemaCheckedTable:
    """A table that first holds each body to its published JSON Schema."""

    def __init__(self, ruleset: str, table: Table) -> None:
        self.validators = body_validators(ruleset)
        self.table = table

    def send(self, command: Mapping[str, Any]) -> dict[str, Any]:
        errors = [e.message for e in self.validators[command["type"]].iter_errors(dict(command))]
        assert errors == [], (command, errors)
        return self.table.send(command)

    def state(self) -> dict[str, Any]:
        return self.table.state()


@pytest.fixture(params=["rules", "http"])
def new_table(request: pytest.FixtureRequest, rules_table: TableFactory) -> TableFactory:
    """`new_table(ruleset, options=None) -> Table`; examples only use `table.send` and its outcomes."""
    if request.param == "rules":

        def checked(ruleset: str, options: Mapping[str, Any] | None = None) -> Table:
            return SchemaCheckedTable(ruleset, rules_table(ruleset, options))

        return checked
    if request.param == "http":
        http_table: TableFactory = request.getfixturevalue("http_table")
        return http_table
    raise NotImplementedError(request.param)
