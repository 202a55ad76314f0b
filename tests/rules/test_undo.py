"""`undo`: the fold cancels the latest applied command, the log keeps both, replays agree."""

from __future__ import annotations

from typing import Any

import pytest

from eventstore.canonical import canonical_json
from rules.fold import Battle, encode_battle, project
from rules.undo import Rewinder
from tests.harness import RulesTable
from tests.rules.epic.given import applied, rejected, section, stand

WALL_2 = {"type": "add_fortification", "id": "W2", "kind": "wall"}


def encoded_but_version(battle: Battle[Any]) -> str:
    return canonical_json({**encode_battle(battle), "version": None})


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
def test_undo_on_a_fresh_battle_is_rejected_nothing_to_undo(ruleset: str) -> None:
    t = RulesTable(ruleset)
    assert rejected(t, {"type": "undo"}) == "nothing_to_undo"


def test_undo_restores_the_state_byte_for_byte_and_names_the_version_it_cancelled() -> None:
    t = RulesTable("epic")
    section(t, "W1")
    before = t.battle
    added = t.send(WALL_2)
    assert applied(t, {"type": "undo"}) == {"undone_version": added["version"]}
    assert encoded_but_version(t.battle) == encoded_but_version(before)
    assert t.outcomes[added["version"] - 1] == added  # the undone entry's outcome stands as recorded


def test_two_undos_cancel_the_last_two_commands_and_a_third_finds_nothing() -> None:
    t = RulesTable("epic")
    created = t.battle
    section(t, "W1")
    rejected(t, {"type": "add_fortification", "id": "W1", "kind": "wall"})  # a rejection is not undoable
    stand(t, "csm", location={"kind": "at_foot", "section_id": "W1"})
    assert applied(t, {"type": "undo"}) == {"undone_version": 4}
    assert applied(t, {"type": "undo"}) == {"undone_version": 2}
    assert encoded_but_version(t.battle) == encoded_but_version(created)
    assert rejected(t, {"type": "undo"}) == "nothing_to_undo"


def test_an_undo_after_a_new_command_cancels_that_command_not_the_earlier_undone_one() -> None:
    t = RulesTable("epic")
    section(t, "W1")
    applied(t, {"type": "undo"})
    t.send(WALL_2)
    assert applied(t, {"type": "undo"}) == {"undone_version": 4}
    assert t.state()["sections"] == []


def test_a_refold_from_the_log_alone_gives_every_state_and_outcome_again() -> None:
    t = RulesTable("epic")
    section(t, "W1")
    t.send(WALL_2)
    t.send({"type": "undo"})
    t.send({"type": "undo"})
    t.send(WALL_2)
    t.send({"type": "undo"})
    entries = t.entries
    rewind = Rewinder(lambda a, b: [e for e in entries if a < e.version <= b], lambda: t.seeds)
    fresh = list(project(None, entries, t.seeds, rewind))
    assert [o for _b, o in fresh] == t.outcomes
    assert [encode_battle(b) for b, _o in fresh] == [encode_battle(b) for b in t.states]


def test_undo_after_conclude_is_rejected_battle_concluded() -> None:
    t = RulesTable("epic")
    section(t, "W1")
    t.send({"type": "conclude"})
    assert rejected(t, {"type": "undo"}) == "battle_concluded"
