"""The wire schemas follow the ruleset: every command, every field name, every option, every dice slot."""

from __future__ import annotations

import dataclasses

import pytest

from rules.fold import CONCLUDE, UNDO
from rules.registry import get_ruleset
from schemas.commands import command_schemas, load_command
from schemas.registry import ruleset_schemas, schema_rulesets

NOT_FIELDS = {"type", "dice"}


@pytest.mark.parametrize("ruleset", schema_rulesets())
def test_there_is_one_schema_per_command_of_the_ruleset_and_conclude(ruleset: str) -> None:
    assert set(command_schemas(ruleset)) == set(get_ruleset(ruleset).commands) | {CONCLUDE, UNDO}


@pytest.mark.parametrize("ruleset", schema_rulesets())
def test_schema_fields_are_the_command_record_fields(ruleset: str) -> None:
    for kind, record in get_ruleset(ruleset).commands.items():
        declared = set(command_schemas(ruleset)[kind]._declared_fields) - NOT_FIELDS
        assert declared == {f.name for f in dataclasses.fields(record)}, kind


@pytest.mark.parametrize("ruleset", schema_rulesets())
def test_options_are_the_ruleset_options(ruleset: str) -> None:
    declared = set(ruleset_schemas(ruleset).options._declared_fields)
    assert declared == set(get_ruleset(ruleset).default_options)


@pytest.mark.parametrize("ruleset", schema_rulesets())
def test_default_options_fit_the_options_schema(ruleset: str) -> None:
    defaults = dict(get_ruleset(ruleset).default_options)
    assert ruleset_schemas(ruleset).options().load(defaults) == defaults


def test_a_loaded_command_keeps_the_fields_as_sent_without_type_and_dice() -> None:
    body = {"type": "climb", "stand_id": "csm", "section_id": "W1", "dice": {"attacker": 6}}

    loaded = load_command("epic", body)

    assert (loaded.type, loaded.data, loaded.dice) == (
        "climb",
        {"stand_id": "csm", "section_id": "W1"},
        {"attacker": 6},
    )


def test_defaults_are_documented_not_filled_in() -> None:
    loaded = load_command("epic", {"type": "add_fortification", "id": "W1", "kind": "wall"})

    assert loaded.data == {"id": "W1", "kind": "wall"}  # `door` on a wall would be the rules' invalid_field
