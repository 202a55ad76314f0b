"""`new_table`: the worked examples run against every way of folding a battle (pure rules, HTTP), every
body they send is checked against the JSON Schema `GET /rulesets/{name}` publishes for its command, and every
applied result against the component the OpenAPI document names for its command type (schemas/results.py)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rules.describe import describe
from rules.registry import get_ruleset
from schemas.results import REF, result_component, result_components
from tests.conftest import TableFactory
from tests.harness import Table
from tests.referee.builds import rules_are_compiled


@cache
def body_validators(ruleset: str) -> dict[str, Draft202012Validator]:
    commands = describe(get_ruleset(ruleset))["commands"]
    return {name: Draft202012Validator(command["body"]) for name, command in commands.items()}


@cache
def result_validator(ruleset: str, command: str) -> tuple[Draft202012Validator, frozenset[str]]:
    """The documented result of `command`, and the members it names (nothing else may be sent)."""
    components = result_components(ruleset)
    documented = components[result_component(ruleset, command)]["allOf"]
    members = {key for part in documented for key in components[part["$ref"].removeprefix(REF)]["properties"]}
    root = {"components": {"schemas": components}, "$ref": REF + result_component(ruleset, command)}
    return Draft202012Validator(root), frozenset(members)


class SchemaCheckedTable:
    """A table that holds each body to its published JSON Schema, and each result to its documented one."""

    def __init__(self, ruleset: str, table: Table) -> None:
        self.ruleset = ruleset
        self.validators = body_validators(ruleset)
        self.table = table

    def send(self, command: Mapping[str, Any]) -> dict[str, Any]:
        errors = [e.message for e in self.validators[command["type"]].iter_errors(dict(command))]
        assert errors == [], (command, errors)
        outcome = self.table.send(command)
        # results are documented from the pure records' annotations, which mypyc does not keep: under the
        # compiled build they are held to the pure Python's outcomes instead, byte for byte (tests/referee)
        if outcome["status"] == "applied" and not rules_are_compiled():
            validator, members = result_validator(self.ruleset, command["type"])
            errors = [
                f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(outcome["result"])
            ]
            assert errors == [], (command["type"], errors)
            assert set(outcome["result"]) <= members, (command["type"], set(outcome["result"]) - members)
        return outcome

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
        if rules_are_compiled():
            pytest.skip("the API process always runs the pure Python: only the workers may run compiled")
        http_table: TableFactory = request.getfixturevalue("http_table")
        return http_table
    raise NotImplementedError(request.param)
