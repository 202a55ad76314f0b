"""The log's contract, on every backend (memory, Redis, Redis Cluster: the `store` fixture): creating,
importing and reading a battle's entries, their hash chain, and how far the outcomes folded from them
reach."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable

import pytest

from eventstore.chain import GENESIS_HASH, verify_chain
from eventstore.errors import BattleExists, BrokenHistory, UnknownBattle
from eventstore.records import Head, StoredEntry
from tests.eventstore.contract.builders import outcomes, state, token, versions
from tests.eventstore.helpers import SEED, appending, battle, command, created, importing
from tests.fixtures.redis_server import Backend


def test_a_new_battle_starts_at_version_one_with_the_genesis_link(store: Backend) -> None:
    appended = store.create_battle("b1", created(), SEED)
    first = store.entry("b1", 1)
    assert appended.version == 1 and not appended.replayed
    assert first is not None and first.type == "battle_created" and first.prev_hash == GENESIS_HASH
    assert store.head("b1").hash == appended.hash == first.hash
    assert store.secret("b1") == SEED


def test_an_entry_reads_back_exactly_as_written(store: Backend) -> None:
    battle(store)
    note = "à l'assaut 🏰\n\t\u0001\\"  # non-ASCII, non-BMP, control and escape characters survive
    written = command("aim", key="k-1", engine="catapult", angle=45, note=note, nested={"a": [1, None]})
    store.append(appending("b1", written, fingerprint="f"))
    read = store.entry("b1", 2)
    assert read is not None
    assert (read.type, read.data, read.dice) == (written.type, written.data, written.dice)
    assert (read.actor, read.idempotency_key, read.recorded_at) == ("gm", "k-1", written.recorded_at)
    assert read.schema_version == 1


def test_the_hash_chain_links_every_entry_and_verifies(store: Backend) -> None:
    battle(store, commands=9)
    entries = list(store.iter_entries("b1"))
    assert all(later.prev_hash == earlier.hash for earlier, later in itertools.pairwise(entries))
    check = verify_chain(entries)
    assert check.ok and check.checked == 10
    assert (check.head_version, check.head_hash) == (10, store.head("b1").hash)


def test_a_rewritten_entry_breaks_the_chain_where_it_was_changed(store: Backend) -> None:
    battle(store, commands=5)
    entries = list(store.iter_entries("b1"))
    entries[3] = dataclasses.replace(entries[3], data={"engine": "forged"})
    check = verify_chain(entries)
    assert not check.ok and (check.broken_at, check.reason) == (4, "hash_mismatch")


def test_an_unknown_battle_is_reported_as_unknown(store: Backend) -> None:
    with pytest.raises(UnknownBattle):
        store.head("nope")
    with pytest.raises(UnknownBattle):
        store.append(appending("nope", command()))
    with pytest.raises(UnknownBattle):
        store.read("nope")
    with pytest.raises(UnknownBattle):
        list(store.iter_entries("nope"))
    with pytest.raises(UnknownBattle):
        store.secret("nope")
    assert store.entry("nope", 1) is None


def test_creating_a_taken_battle_id_fails_and_keeps_the_original(store: Backend) -> None:
    original = store.create_battle("b1", created("first"), SEED)
    with pytest.raises(BattleExists):
        store.create_battle("b1", created("second"), "cd" * 32)
    assert store.head("b1") == Head(version=1, hash=original.hash)
    assert store.secret("b1") == SEED
    assert list(store.battle_ids()) == ["b1"]


def test_battle_ids_lists_every_battle(store: Backend) -> None:
    for battle_id in ("b1", "b2", "b3"):
        battle(store, battle_id)
    assert sorted(store.battle_ids()) == ["b1", "b2", "b3"]


def test_read_pages_by_after_and_limit(store: Backend) -> None:
    battle(store, commands=9)
    assert [e.version for e in store.read("b1", limit=3)] == [1, 2, 3]
    assert [e.version for e in store.read("b1", after=3, limit=3)] == [4, 5, 6]
    assert [e.version for e in store.read("b1", after=8)] == [9, 10]
    assert store.read("b1", after=10) == []
    assert store.entry("b1", 7) is not None and store.entry("b1", 11) is None and store.entry("b1", 0) is None


@pytest.mark.parametrize("read_ahead", [False, True])
@pytest.mark.parametrize("batch", [1, 4, 5, 1000])
def test_iter_entries_streams_a_range_in_batches(store: Backend, batch: int, read_ahead: bool) -> None:
    battle(store, commands=19)
    assert versions(store, "b1") == list(range(1, 21))
    ranged = store.iter_entries("b1", after=3, upto=15, batch=batch, read_ahead=read_ahead)
    assert [e.version for e in ranged] == list(range(4, 16))
    assert list(store.iter_entries("b1", after=20, batch=batch, read_ahead=read_ahead)) == []
    assert list(store.iter_entries("b1", after=15, upto=15, batch=batch, read_ahead=read_ahead)) == []
    whole = list(store.iter_entries("b1", batch=batch, read_ahead=read_ahead))
    assert whole == list(store.iter_entries("b1")) and [e.version for e in whole] == list(range(1, 21))
    with pytest.raises(UnknownBattle):
        list(store.iter_entries("nope", batch=batch, read_ahead=read_ahead))


def test_a_reader_ahead_that_stops_early_leaves_the_store_answering(store: Backend) -> None:
    battle(store, commands=19)
    reading = store.iter_entries("b1", batch=4, read_ahead=True)
    assert [next(reading).version for _ in range(6)] == [1, 2, 3, 4, 5, 6]
    del reading  # dropped mid-way, as by a fold that raised: the page asked for ahead must reach no one
    assert [e.version for e in store.read("b1", after=10, limit=3)] == [11, 12, 13]
    assert store.head("b1").version == 20 and versions(store, "b1") == list(range(1, 21))


@pytest.mark.parametrize("batch", [1, 3, 1000])
def test_an_imported_history_reads_back_entry_for_entry_with_its_secret_and_token(
    store: Backend, batch: int
) -> None:
    battle(store, "b1", commands=6)
    original = list(store.iter_entries("b1"))

    head = store.import_battle(importing("copy", iter(original), "cd" * 32, token=token(), batch=batch))

    assert list(store.iter_entries("copy")) == original
    assert head == store.head("copy") == store.head("b1")
    assert store.secret("copy") == "cd" * 32
    assert store.tokens("copy") == [token()]
    assert "copy" in set(store.battle_ids())
    assert store.append(appending("copy", command())).version == 8  # the copy goes on like any battle


def test_an_import_onto_a_taken_id_is_refused_and_changes_nothing(store: Backend) -> None:
    battle(store, "b1", commands=2)
    before = list(store.iter_entries("b1"))
    with pytest.raises(BattleExists):
        store.import_battle(importing("b1", iter(before), "cd" * 32))
    assert list(store.iter_entries("b1")) == before and store.secret("b1") == SEED


@pytest.mark.parametrize(
    ("broken", "version", "reason"),
    [
        (lambda log: log[1:], 2, "version_gap"),
        (lambda log: [log[0], log[2], *log[3:]], 3, "version_gap"),
        (
            lambda log: [log[0], dataclasses.replace(log[1], prev_hash="f" * 64), *log[2:]],
            2,
            "prev_hash_mismatch",
        ),
        (lambda log: [log[0], dataclasses.replace(log[1], data={"x": 1}), *log[2:]], 2, "hash_mismatch"),
        (lambda log: [], 1, "no entries"),
    ],
    ids=["no_version_1", "a_gap", "a_broken_link", "an_edited_entry", "nothing"],
)
def test_a_history_that_does_not_chain_is_refused_and_leaves_nothing(
    store: Backend, broken: Callable[[list[StoredEntry]], list[StoredEntry]], version: int, reason: str
) -> None:
    battle(store, "b1", commands=5)
    with pytest.raises(BrokenHistory) as refused:
        store.import_battle(
            importing("copy", iter(broken(list(store.iter_entries("b1")))), "cd" * 32, batch=2)
        )
    assert (refused.value.version, refused.value.reason) == (version, reason)
    with pytest.raises(UnknownBattle):
        store.head("copy")
    assert "copy" not in set(store.battle_ids())


def test_the_projected_version_is_read_without_the_state(store: Backend) -> None:
    battle(store, commands=4)
    assert store.projected_version("b1") == 0
    store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    assert store.projected_version("b1") == 3
    store.delete_derived("b1")
    assert store.projected_version("b1") == 0
