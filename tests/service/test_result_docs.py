"""Every command type's result is documented (schemas/results.py); the ones no worked example applies are
checked here. The worked examples check every other result against its component (tests/examples)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator

from eventstore.redis_store import RedisEventStore
from rules.fold import CONCLUDE
from rules.registry import get_ruleset
from schemas.registry import schema_rulesets
from schemas.results import REF, RESULTS, result_component
from tests.conftest import TableFactory
from tests.examples.conftest import result_validator
from tests.service.helpers import accepted, create_battle, fold, outcome


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


@pytest.mark.parametrize(
    ("ruleset", "command"),
    [("epic", {"type": "advance_phase"}), ("pathfinder", {"type": "set_wind", "level": "strong"})],
)
def test_the_results_of_battle_created_and_undo_fit_the_served_outcome_schema(
    client: FlaskClient, redis_store: RedisEventStore, ruleset: str, command: dict[str, str]
) -> None:
    """Issue 22: neither result fitted `Outcome.result`, whose every component carried the members
    (turn, phase, dice) of a command's result, which neither has."""
    document = client.get("/openapi.json").get_json()
    battle_id = create_battle(client, ruleset=ruleset)
    accepted(client, battle_id, command)
    accepted(client, battle_id, {"type": "undo"})
    fold(redis_store, battle_id)
    created, undone = outcome(client, battle_id, 1), outcome(client, battle_id, 3)

    assert (created["type"], undone["type"], undone["status"]) == ("battle_created", "undo", "applied")
    assert undone["result"] == {"undone_version": 2}
    for told in (created, undone):
        assert _errors(document, "Outcome", told) == []
        assert _errors(document, result_component(ruleset, told["type"]), told["result"]) == []


def _errors(document: dict[str, Any], component: str, instance: Any) -> list[str]:
    validator = Draft202012Validator({**document, "$ref": REF + component})
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(instance)]
