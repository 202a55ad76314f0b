"""Every fold of stored history goes through rules.history, and every comparison with stored outcomes
through replay.drift."""

from __future__ import annotations

from eventstore.canonical import canonical_json
from eventstore.memory_store import MemoryEventStore
from eventstore.paging import history
from replay.drift import compare_outcomes
from replay.folds import replay_states, seeds_of
from rules.fold import Seeds, encode_battle
from rules.history import fold_history, state_after
from tests.workers.logs import append, fresh_state, new_battle
from workers.projection import load_projection, project_battle


def no_seeds() -> Seeds:
    raise AssertionError("nothing was left to fold, so the seeds should not have been read")


def test_a_battle_with_nothing_new_to_fold_reads_no_seeds() -> None:
    store = MemoryEventStore()
    battle_id = new_battle(store, commands=3)
    project_battle(store, store, battle_id)
    battle = load_projection(store, battle_id)
    assert battle is not None

    assert list(fold_history(battle, history(store, battle_id, after=battle.version), no_seeds)) == []
    assert state_after(battle, history(store, battle_id, after=battle.version), no_seeds) is battle


def test_the_state_after_the_whole_history_is_the_fresh_replay() -> None:
    store = MemoryEventStore()
    battle_id = new_battle(store, commands=7)

    last = state_after(None, history(store, battle_id), lambda: seeds_of(store, battle_id))

    assert last is not None and last.version == 8
    assert canonical_json(encode_battle(last)) == fresh_state(store, battle_id)


def test_a_fresh_fold_matches_what_was_projected_and_unprojected_versions_are_pending() -> None:
    store = MemoryEventStore()
    battle_id = new_battle(store, commands=4)
    project_battle(store, store, battle_id)
    append(store, battle_id, 2)
    fresh = replay_states(store, store, battle_id, upto=7)

    matches = [match for _, _, match in compare_outcomes(store, battle_id, 7, fresh)]

    assert matches == ["same"] * 5 + ["pending"] * 2


def test_an_outcome_with_other_bytes_is_told_apart() -> None:
    store = MemoryEventStore()
    battle_id = new_battle(store, commands=2)
    project_battle(store, store, battle_id)
    rewritten = [
        (battle, {**outcome, "summary": "x"}) for battle, outcome in replay_states(store, store, battle_id)
    ]

    matches = [match for _, _, match in compare_outcomes(store, battle_id, 3, rewritten)]

    assert matches == ["outcome"] * 3
