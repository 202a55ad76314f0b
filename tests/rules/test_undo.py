"""`undo`: the fold cancels the latest applied command, the log keeps both, replays agree."""

from __future__ import annotations

from typing import Any

import pytest

from eventstore.canonical import canonical_json
from rules.fold import Battle, Entry, encode_battle, project, step
from rules.undo import KEEP, Rewinder
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


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
def test_a_refused_undo_only_moves_the_battle_on_a_version_and_rolls_nothing(ruleset: str) -> None:
    t = RulesTable(ruleset)
    created = t.battle
    assert rejected(t, {"type": "undo"}) == "nothing_to_undo"
    assert t.battle.version == 2 and t.battle.concluded is False and t.battle.undoable == 0
    assert encoded_but_version(t.battle) == encoded_but_version(created)
    assert t.outcomes[-1]["rolls"] == [] and t.outcomes[-1]["version"] == 2


def test_an_applied_undo_rolls_nothing_either() -> None:
    t = RulesTable("epic")
    section(t, "W1")
    applied(t, {"type": "undo"})
    assert t.outcomes[-1]["rolls"] == [] and t.outcomes[-1]["status"] == "applied"


def test_an_undo_folded_without_the_battles_earlier_states_is_a_programming_error() -> None:
    t = RulesTable("epic")
    section(t, "W1")
    undo = Entry(version=3, type="undo", data={}, dice={})
    with pytest.raises(ValueError, match=r"^an undo needs the battle's earlier states: fold with a rewind"):
        step(t.battle, undo, t.seeds, None)


class Log:
    """A battle's log as a Rewinder reads it, each read it was asked for kept."""

    def __init__(self, table: RulesTable) -> None:
        self.entries, self.reads = table.entries, list[tuple[int, int]]()

    def __call__(self, after: int, upto: int) -> list[Entry]:
        self.reads.append((after, upto))
        return [e for e in self.entries if after < e.version <= upto]


def _walled(count: int) -> RulesTable:
    t = RulesTable("epic")
    for n in range(1, count + 1):
        section(t, f"W{n}")
    return t


def test_a_rewind_folds_from_the_nearest_state_it_has_or_is_given_and_remembers_what_it_folded() -> None:
    t = _walled(6)  # versions 1..7
    log = Log(t)
    rewind = Rewinder(log, lambda: t.seeds, start=lambda version: t.states[2] if version >= 3 else None)

    assert rewind(5) == t.states[4] and log.reads == [(3, 5)]  # after the snapshot at version 3
    assert rewind(5) is rewind(5) and log.reads == [(3, 5)]  # remembered: nothing read again
    assert rewind(3) is t.states[2] and log.reads == [(3, 5)]  # the snapshot itself, at that very version
    assert rewind(6) == t.states[5] and log.reads == [(3, 5), (5, 6)]  # on from the remembered 5
    assert rewind(2) == t.states[1] and log.reads[-1] == (0, 2)  # before the snapshot: from nothing


def test_a_rewind_past_the_log_is_refused() -> None:
    t = _walled(2)  # versions 1..3
    rewind = Rewinder(Log(t), lambda: t.seeds)
    with pytest.raises(ValueError, match=r"^the log has no version 9 to rewind to$"):
        rewind(9)


def test_a_rewind_remembers_at_most_keep_states_then_starts_afresh() -> None:
    t = _walled(KEEP + 1)  # versions 1..KEEP + 2
    log = Log(t)
    rewind = Rewinder(log, lambda: t.seeds)
    for version in range(1, KEEP + 1):
        rewind(version)
    log.reads.clear()
    assert rewind(1) == t.states[0] and log.reads == []  # all KEEP still remembered
    rewind(KEEP + 1)  # one more: the memory is full, so it is emptied first
    rewind(1)
    assert log.reads == [(KEEP, KEEP + 1), (0, 1)]
