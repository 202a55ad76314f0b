"""Every command type's result is documented (schemas/results.py); the ones no worked example applies are
checked here. The worked examples check every other result against its component (tests/examples)."""

from __future__ import annotations

import pytest

from rules.fold import CONCLUDE
from rules.registry import get_ruleset
from schemas.registry import schema_rulesets
from schemas.results import RESULTS
from tests.conftest import TableFactory
from tests.examples.conftest import result_validator


@pytest.mark.parametrize("ruleset", schema_rulesets())
def test_every_command_type_names_its_result_record(ruleset: str) -> None:
    assert set(RESULTS[ruleset]) == {*get_ruleset(ruleset).commands, CONCLUDE}


@pytest.mark.parametrize(
    ("ruleset", "command"),
    [
        ("epic", {"type": CONCLUDE}),
        ("pathfinder", {"type": CONCLUDE}),
        ("pathfinder", {"type": "set_wind", "level": "strong"}),
    ],
)
def test_a_result_no_example_applies_fits_its_component(
    rules_table: TableFactory, ruleset: str, command: dict[str, str]
) -> None:
    outcome = rules_table(ruleset).send(command)

    assert outcome["status"] == "applied", outcome
    validator, members = result_validator(ruleset, command["type"])
    assert [e.message for e in validator.iter_errors(outcome["result"])] == []
    assert set(outcome["result"]) <= members
