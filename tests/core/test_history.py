"""What the stores' callers fold with (rules/history.py, rules/fold.py's state codec, rules/registry.py's
refusal, rules/references.py): a battle's seeds, its history folded from any state, a stored state read
back, and whether this release may fold a battle at all (DESIGN §3.5: never with other rules)."""

from __future__ import annotations

import pytest

from rules.fold import Battle, Entry, Seeds, decode_battle, encode_battle
from rules.history import battle_seeds, fold_history, state_after
from rules.references import actors, named_references, references
from rules.registry import folded_versions, get_ruleset, refusal
from tests.harness import RulesTable


def _played() -> RulesTable:
    """An epic battle with house rules, a fight, an undo and its conclusion: every header field set."""
    table = RulesTable("epic", {"assault_requires_order": False}, client_seed="ab")
    table.send({"type": "add_fortification", "id": "W1", "kind": "wall"})
    table.send({"type": "add_stand", "id": "a1", "stand_type": "infantry", "side": "attacker", "caf": 3,
                "speed_cm": 10, "location": {"kind": "at_foot", "section_id": "W1"}})  # fmt: skip
    table.send({"type": "add_stand", "id": "a2", "stand_type": "infantry", "side": "attacker", "caf": 2,
                "speed_cm": 10, "location": {"kind": "at_foot", "section_id": "W1"}})  # fmt: skip
    table.send({"type": "undo"})
    return table


def _seeds_never_read() -> Seeds:
    raise AssertionError("a history with nothing new must not read the battle's seeds")


def test_a_battles_seeds_are_its_secret_and_the_client_seed_its_creation_recorded() -> None:
    assert battle_seeds("00ff10", {"client_seed": "table-7"}) == Seeds(
        server_seed=b"\x00\xff\x10", client_seed="table-7"
    )
    assert battle_seeds("", {}) == Seeds(server_seed=b"", client_seed="")
    assert battle_seeds("01", {"client_seed": None}) == Seeds(server_seed=b"\x01", client_seed="")


def test_a_history_folded_from_nothing_gives_each_state_and_outcome_the_fold_gave() -> None:
    table = _played()
    folded = list(fold_history(None, table.entries, lambda: table.seeds, table.at))

    assert [battle for battle, _ in folded] == table.states
    assert [outcome["status"] for _, outcome in folded[1:]] == ["applied", "applied", "applied", "applied"]
    assert state_after(None, table.entries, lambda: table.seeds, table.at) == table.battle


def test_a_history_folded_from_a_state_goes_on_from_there_and_an_empty_one_reads_no_seed() -> None:
    table = _played()
    middle = table.states[2]  # version 3: the wall and one stand
    rest = table.entries[3:]
    folded = list(fold_history(middle, rest, lambda: table.seeds, table.at))

    assert [battle.version for battle, _ in folded] == [4, 5]
    assert folded[-1][0] == table.battle
    assert list(fold_history(middle, [], _seeds_never_read)) == []
    assert state_after(middle, iter(()), _seeds_never_read) is middle
    assert state_after(None, [], _seeds_never_read) is None


def test_a_stored_state_reads_back_as_the_battle_it_was_written_from() -> None:
    table = _played()
    concluded = table.battle
    table.send({"type": "conclude"})
    for battle in (*table.states, concluded, table.battle):
        assert decode_battle(encode_battle(battle)) == battle
    assert table.battle.concluded and table.battle.options["assault_requires_order"] is False
    assert table.states[3].undoable == 4  # before the undo: the second stand is what it cancels


def test_a_state_stored_before_undo_existed_reads_back_with_nothing_to_undo() -> None:
    battle = _played().states[3]
    stored = encode_battle(battle)
    for old in ({k: v for k, v in stored.items() if k != "undoable"}, {**stored, "undoable": None}):
        read: Battle[object] = decode_battle(old)
        assert read.undoable == 0 and read.version == battle.version == 4


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
def test_a_battle_pinned_to_rules_this_release_folds_is_not_refused(ruleset: str) -> None:
    for version in folded_versions(ruleset):
        assert refusal({"ruleset": ruleset, "rules_version": version}) is None


@pytest.mark.parametrize(
    ("created", "ruleset", "version", "supported"),
    [
        ({"ruleset": "epic", "rules_version": "epic-99"}, "epic", "epic-99", ("epic-1", "epic-2")),
        ({"ruleset": "epic", "rules_version": "pathfinder-2"}, "epic", "pathfinder-2", ("epic-1", "epic-2")),
        ({"ruleset": "chess", "rules_version": "chess-1"}, "chess", "chess-1", ()),
        ({}, "None", "None", ()),
    ],
)
def test_a_battle_pinned_to_other_rules_is_refused_naming_them_and_what_this_release_folds(
    created: dict[str, str], ruleset: str, version: str, supported: tuple[str, ...]
) -> None:
    refused = refusal(created)
    assert refused is not None
    assert (refused.ruleset, refused.rules_version, refused.supported) == (ruleset, version, supported)
    assert str(refused) == f"the battle needs rules version {version} of {ruleset}"


def test_a_commands_references_are_the_entities_it_names_with_their_kinds() -> None:
    climb = get_ruleset("epic").parse("climb", {"stand_id": "a1", "section_id": "W1"})
    assert references(climb) == [("stand", "a1"), ("section", "W1")]
    assert named_references(climb) == [("stand_id", ("stand", "a1")), ("section_id", ("section", "W1"))]
    assert actors(climb) == [("stand", "a1")]  # the stand climbs; the section is climbed
    created = get_ruleset("epic").parse("add_fortification", {"id": "W2", "kind": "wall"})
    assert references(created) == []  # an id it creates names nothing that exists yet


def test_the_entries_a_history_takes_are_the_logs_own() -> None:
    """fold_history takes any entries with version, type, data and dice: the store's or a file's."""
    table = _played()
    copied = [Entry(version=e.version, type=e.type, data=e.data, dice=e.dice) for e in table.entries]
    assert state_after(None, copied, lambda: table.seeds, table.at) == table.battle
