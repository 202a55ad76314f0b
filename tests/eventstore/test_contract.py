"""The storage contract (DESIGN §3, §4), run on every backend through the `store` fixture (STYLE §5)."""

from __future__ import annotations

import dataclasses
import itertools
import threading
import time
from collections.abc import Callable

import pytest

from eventstore.chain import GENESIS_HASH, verify_chain
from eventstore.errors import (
    BattleExists,
    BrokenHistory,
    IdempotencyInFlight,
    IdempotencyMismatch,
    RateLimited,
    TooManyTokens,
    UnknownBattle,
    VersionConflict,
)
from eventstore.records import Budget, Head, Projection, StoredEntry, TokenRecord, Window
from tests.eventstore.helpers import SEED, appending, battle, command, created, eventually, importing
from tests.fixtures.redis_server import Backend

StoreFactory = Callable[..., Backend]


def versions(store: Backend, battle_id: str) -> list[int]:
    return [entry.version for entry in store.iter_entries(battle_id)]


def state(version: int) -> Projection:
    return Projection(version=version, state=f'{{"version":{version}}}')


def outcomes(first: int, last: int) -> list[tuple[int, str]]:
    return [(v, f'{{"version":{v}}}') for v in range(first, last + 1)]


# --- the log -------------------------------------------------------------------------------------


def test_a_new_battle_starts_at_version_one_with_the_genesis_link(store: Backend) -> None:
    appended = store.create_battle("b1", created(), SEED)
    first = store.entry("b1", 1)
    assert appended.version == 1 and not appended.replayed
    assert first is not None and first.type == "battle_created" and first.prev_hash == GENESIS_HASH
    assert store.head("b1").hash == appended.hash == first.hash
    assert store.secret("b1") == SEED


def test_appends_take_the_next_versions_in_order(store: Backend) -> None:
    battle(store)
    landed = [store.append(appending("b1", command(n=n))).version for n in range(5)]
    assert landed == [2, 3, 4, 5, 6]
    assert versions(store, "b1") == [1, 2, 3, 4, 5, 6]
    assert store.head("b1").version == 6


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


def test_concurrent_appenders_leave_no_gap_and_no_duplicate(store: Backend) -> None:
    battle(store)
    landed: list[int] = []
    guard = threading.Lock()

    def appender(worker: int) -> None:
        for n in range(25):
            version = store.append(appending("b1", command(worker=worker, n=n))).version
            with guard:
                landed.append(version)

    threads = [threading.Thread(target=appender, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(landed) == list(range(2, 102))
    assert versions(store, "b1") == list(range(1, 102))
    assert verify_chain(store.iter_entries("b1")).ok


def test_a_stale_expected_version_conflicts_and_changes_nothing(store: Backend) -> None:
    battle(store, commands=2)
    before = store.head("b1")
    with pytest.raises(VersionConflict) as conflict:
        store.append(appending("b1", command(), expected_version=2))
    assert conflict.value.current == 3
    assert store.head("b1") == before


def test_the_current_expected_version_appends(store: Backend) -> None:
    battle(store, commands=2)
    assert store.append(appending("b1", command(), expected_version=3)).version == 4


def test_the_same_idempotency_key_and_body_replays_the_original(store: Backend) -> None:
    battle(store)
    first = store.append(appending("b1", command(key="k"), fingerprint="body-1"))
    store.append(appending("b1", command()))
    again = store.append(appending("b1", command(key="k"), fingerprint="body-1"))
    assert again.replayed and (again.version, again.hash) == (first.version, first.hash)
    assert store.head("b1").version == 3


def test_a_replayed_key_wins_over_a_stale_expected_version(store: Backend) -> None:
    battle(store)
    first = store.append(appending("b1", command(key="k"), expected_version=1, fingerprint="body-1"))
    again = store.append(appending("b1", command(key="k"), expected_version=1, fingerprint="body-1"))
    assert again.replayed and again.version == first.version == 2


def test_the_same_idempotency_key_with_another_body_is_refused(store: Backend) -> None:
    battle(store)
    store.append(appending("b1", command(key="k"), fingerprint="body-1"))
    with pytest.raises(IdempotencyMismatch) as mismatch:
        store.append(appending("b1", command(key="k"), fingerprint="body-2"))
    assert mismatch.value.version == 2
    assert store.head("b1").version == 2


def test_idempotency_keys_belong_to_one_battle(store: Backend) -> None:
    battle(store, "b1")
    battle(store, "b2")
    store.append(appending("b1", command(key="k"), fingerprint="f"))
    assert not store.append(appending("b2", command(key="k"), fingerprint="f")).replayed


def test_a_keyed_append_is_in_flight_until_its_response_is_recorded(store: Backend) -> None:
    battle(store)
    first = store.append(appending("b1", command(key="k"), fingerprint="f", lease_s=30))
    with pytest.raises(IdempotencyInFlight) as in_flight:
        store.append(appending("b1", command(key="k"), fingerprint="f", lease_s=30))
    assert in_flight.value.version == first.version == 2
    assert store.record_response("b1", "k", 2, '{"status":202}')
    again = store.append(appending("b1", command(key="k"), fingerprint="f", lease_s=30))
    assert again.replayed and again.response == '{"status":202}' and again.hash == first.hash
    assert store.head("b1").version == 2


def test_another_body_is_a_mismatch_even_while_the_first_is_in_flight(store: Backend) -> None:
    battle(store)
    store.append(appending("b1", command(key="k"), fingerprint="f", lease_s=30))
    with pytest.raises(IdempotencyMismatch):
        store.append(appending("b1", command(key="k"), fingerprint="other", lease_s=30))


def test_a_lapsed_lease_replays_without_a_response(store: Backend) -> None:
    battle(store)
    store.append(appending("b1", command(key="k"), fingerprint="f", lease_s=0.05))

    def replayed() -> bool:
        try:
            again = store.append(appending("b1", command(key="k"), fingerprint="f", lease_s=0.05))
        except IdempotencyInFlight:
            return False
        return again.replayed and again.response is None and again.version == 2

    assert eventually(replayed)
    assert store.head("b1").version == 2


def test_a_response_is_recorded_only_for_the_version_its_key_answered(store: Backend) -> None:
    battle(store)
    store.append(appending("b1", command(key="k"), fingerprint="f", lease_s=30))
    assert not store.record_response("b1", "k", 3, "{}")
    assert not store.record_response("b1", "other", 2, "{}")
    assert not store.record_response("nope", "k", 2, "{}")
    with pytest.raises(IdempotencyInFlight):
        store.append(appending("b1", command(key="k"), fingerprint="f", lease_s=30))


def test_an_expired_key_appends_again(store: Backend) -> None:
    battle(store)
    store.append(appending("b1", command(key="k"), fingerprint="f", retain_s=0.05))
    assert eventually(
        lambda: not store.append(appending("b1", command(key="k"), fingerprint="f", retain_s=60)).replayed
    )
    assert store.head("b1").version == 3
    with pytest.raises(IdempotencyMismatch):  # the new record answers now
        store.append(appending("b1", command(key="k"), fingerprint="g"))


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
    with pytest.raises(UnknownBattle):
        store.save_projection("nope", state=state(1), outcomes=outcomes(1, 1))
    assert store.entry("nope", 1) is None and store.projection("nope") is None


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


@pytest.mark.parametrize("batch", [1, 4, 5, 1000])
def test_iter_entries_streams_a_range_in_batches(store: Backend, batch: int) -> None:
    battle(store, commands=19)
    assert versions(store, "b1") == list(range(1, 21))
    ranged = store.iter_entries("b1", after=3, upto=15, batch=batch)
    assert [e.version for e in ranged] == list(range(4, 16))
    assert list(store.iter_entries("b1", after=20, batch=batch)) == []


# --- importing a whole history ------------------------------------------------------------------------


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


# --- derived keys: outcomes, state, snapshots ------------------------------------------------------


def test_a_projection_lands_with_its_outcomes_and_snapshots(store: Backend) -> None:
    battle(store, commands=4)
    assert store.projection("b1") is None
    saved = store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3), snapshots=[state(2)])
    assert saved
    assert store.projection("b1") == state(3)
    assert store.outcomes("b1") == outcomes(1, 3)
    assert store.outcome("b1", 2) == '{"version":2}' and store.outcome("b1", 4) is None
    assert store.snapshot_at_or_before("b1", 3) == state(2)


def test_the_projected_version_is_read_without_the_state(store: Backend) -> None:
    battle(store, commands=4)
    assert store.projected_version("b1") == 0
    store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    assert store.projected_version("b1") == 3
    store.delete_derived("b1")
    assert store.projected_version("b1") == 0


def test_a_projection_is_never_applied_twice(store: Backend) -> None:
    battle(store, commands=4)
    assert store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    assert not store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    assert store.outcomes("b1") == outcomes(1, 3)


def test_a_projection_never_goes_backwards(store: Backend) -> None:
    battle(store, commands=4)
    store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    assert not store.save_projection("b1", state=state(2), outcomes=outcomes(1, 2))
    assert store.projection("b1") == state(3)


def test_a_projection_that_skips_versions_writes_nothing(store: Backend) -> None:
    battle(store, commands=9)
    store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    skipped = store.save_projection("b1", state=state(6), outcomes=outcomes(5, 6), snapshots=[state(6)])
    assert not skipped
    assert store.projection("b1") == state(3)
    assert store.outcomes("b1") == outcomes(1, 3)
    assert store.snapshot_at_or_before("b1", 6) is None


def test_projections_continue_where_the_last_one_ended(store: Backend) -> None:
    battle(store, commands=9)
    store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    assert store.save_projection("b1", state=state(7), outcomes=outcomes(4, 7))
    assert store.outcomes("b1", after=2, limit=3) == outcomes(3, 5)
    assert store.outcomes("b1", after=7) == []


def test_outcomes_out_of_sequence_are_a_caller_error(store: Backend) -> None:
    battle(store, commands=4)
    with pytest.raises(ValueError):
        store.save_projection("b1", state=state(3), outcomes=[(1, "{}"), (3, "{}")])
    assert store.projection("b1") is None


def test_wait_outcome_returns_when_a_projection_lands(store: Backend) -> None:
    battle(store, commands=4)
    store.save_projection("b1", state=state(1), outcomes=outcomes(1, 1))
    got: list[str | None] = []
    waiter = threading.Thread(target=lambda: got.append(store.wait_outcome("b1", 3, timeout_s=30)))
    waiter.start()
    time.sleep(0.05)  # let the waiter block first; correctness does not depend on it
    store.save_projection("b1", state=state(2), outcomes=outcomes(2, 2))
    store.save_projection("b1", state=state(4), outcomes=outcomes(3, 4))
    waiter.join(timeout=30)
    assert got == ['{"version":3}']


def test_wait_outcome_answers_at_once_when_the_outcome_exists(store: Backend) -> None:
    battle(store, commands=2)
    store.save_projection("b1", state=state(3), outcomes=outcomes(1, 3))
    assert store.wait_outcome("b1", 2, timeout_s=30) == '{"version":2}'


def test_wait_outcome_gives_none_when_nothing_lands_in_time(store: Backend) -> None:
    battle(store, commands=2)
    assert store.wait_outcome("b1", 3, timeout_s=0.05) is None
    assert store.wait_outcome("b1", 3, timeout_s=0) is None


def test_the_snapshot_at_or_before_a_version_is_the_latest_one_not_after_it(store: Backend) -> None:
    battle(store, commands=9)
    store.save_projection("b1", state=state(4), outcomes=outcomes(1, 4), snapshots=[state(2), state(4)])
    store.save_projection("b1", state=state(8), outcomes=outcomes(5, 8), snapshots=[state(6), state(8)])
    assert store.snapshot_at_or_before("b1", 1) is None
    assert store.snapshot_at_or_before("b1", 4) == state(4)
    assert store.snapshot_at_or_before("b1", 5) == state(4)
    assert store.snapshot_at_or_before("b1", 100) == state(8)


def test_deleting_derived_keys_keeps_the_log_and_allows_a_rebuild(store: Backend) -> None:
    battle(store, commands=4)
    head = store.head("b1")
    store.save_projection("b1", state=state(5), outcomes=outcomes(1, 5), snapshots=[state(4)])
    store.delete_derived("b1")
    assert store.projection("b1") is None and store.outcomes("b1") == []
    assert store.snapshot_at_or_before("b1", 5) is None
    assert store.head("b1") == head and versions(store, "b1") == [1, 2, 3, 4, 5]
    assert store.secret("b1") == SEED
    assert store.save_projection("b1", state=state(5), outcomes=outcomes(1, 5))


# --- coalesced scheduling and fold locks -----------------------------------------------------------


def test_only_the_first_pending_mark_asks_for_a_job(store: Backend) -> None:
    assert store.mark_pending("b1")
    assert not store.mark_pending("b2")
    assert not store.mark_pending("b1")
    assert sorted(store.take_pending(10)) == ["b1", "b2"]
    assert store.take_pending(10) == []


def test_a_cleared_flag_lets_the_next_mark_ask_for_a_job(store: Backend) -> None:
    store.mark_pending("b1")
    store.clear_scheduled()
    assert store.mark_pending("b1")


def test_an_append_can_mark_its_battle_pending_in_the_same_call(store: Backend) -> None:
    battle(store, "b1")
    battle(store, "b2")
    assert store.append(appending("b1", command(), mark_pending=True)).enqueue
    assert not store.append(appending("b2", command(), mark_pending=True)).enqueue
    assert sorted(store.take_pending(10)) == ["b1", "b2"]
    store.clear_scheduled()
    assert store.append(appending("b1", command(), mark_pending=True)).enqueue


def test_an_append_marks_nothing_unless_asked_or_when_refused(store: Backend) -> None:
    battle(store)
    assert not store.append(appending("b1", command(key="k"), fingerprint="f")).enqueue
    assert not store.append(appending("b1", command(key="k"), fingerprint="f", mark_pending=True)).enqueue
    with pytest.raises(VersionConflict):
        store.append(appending("b1", command(), expected_version=1, mark_pending=True))
    assert store.take_pending(10) == []
    assert store.mark_pending("b1")


def test_take_pending_pops_at_most_count(store: Backend) -> None:
    for n in range(5):
        store.mark_pending(f"b{n}")
    first, rest = store.take_pending(3), store.take_pending(10)
    assert len(first) == 3 and sorted(first + rest) == [f"b{n}" for n in range(5)]
    assert store.take_pending(0) == []


def test_a_lost_jobs_flag_expires_so_appends_reschedule(store_factory: StoreFactory) -> None:
    store = store_factory(scheduled_ttl_s=0.05)
    assert store.mark_pending("b1")
    assert eventually(lambda: store.mark_pending("b1"))


def test_a_lock_has_one_owner_at_a_time(store: Backend) -> None:
    assert store.try_lock("b1", "worker-a", ttl_ms=30_000)
    assert not store.try_lock("b1", "worker-b", ttl_ms=30_000)
    assert store.try_lock("b2", "worker-b", ttl_ms=30_000)


def test_only_the_owner_releases_a_lock(store: Backend) -> None:
    store.try_lock("b1", "worker-a", ttl_ms=30_000)
    store.unlock("b1", "worker-b")
    assert not store.try_lock("b1", "worker-b", ttl_ms=30_000)
    store.unlock("b1", "worker-a")
    assert store.try_lock("b1", "worker-b", ttl_ms=30_000)


def test_a_crashed_owners_lock_expires(store: Backend) -> None:
    store.try_lock("b1", "worker-a", ttl_ms=50)
    assert eventually(lambda: store.try_lock("b1", "worker-b", ttl_ms=30_000))
    store.unlock("b1", "worker-a")  # the old owner waking up late must not free the new owner's lock
    assert not store.try_lock("b1", "worker-c", ttl_ms=30_000)


# --- access tokens -----------------------------------------------------------------------------------


def token(digest: str = "d" * 64, token_id: str = "tok-1", **fields: object) -> TokenRecord:
    values: dict[str, object] = {"role": "gm", "created_at": "2026-03-01T12:00:00.000Z", **fields}
    return TokenRecord(digest=digest, id=token_id, **values)  # type: ignore[arg-type]


def test_a_battle_is_created_with_its_first_token(store: Backend) -> None:
    store.create_battle("b1", created(), SEED, token=token())
    assert store.token("b1", "d" * 64) == token()
    assert store.tokens("b1") == [token()]


def test_tokens_are_found_by_digest_and_belong_to_one_battle(store: Backend) -> None:
    battle(store, "b1")
    battle(store, "b2")
    side = token("a" * 64, "tok-2", role="side", scope="attacker", expires_at="2030-01-01T00:00:00.000Z")
    store.add_token("b1", side)
    assert store.token("b1", "a" * 64) == side
    assert store.token("b2", "a" * 64) is None
    assert store.token("b1", "b" * 64) is None
    assert store.tokens("b2") == []


def test_tokens_are_listed_oldest_first(store: Backend) -> None:
    battle(store)
    later = token("a" * 64, "tok-a", created_at="2026-03-02T00:00:00.000Z")
    earlier = token("b" * 64, "tok-b", role="observer", created_at="2026-03-01T00:00:00.000Z")
    store.add_token("b1", later)
    store.add_token("b1", earlier)
    assert store.tokens("b1") == [earlier, later]


def test_a_token_for_an_unknown_battle_is_refused(store: Backend) -> None:
    with pytest.raises(UnknownBattle):
        store.add_token("nope", token())
    assert store.token("nope", "d" * 64) is None and store.tokens("nope") == []


def test_a_token_past_the_live_cap_is_refused_and_revoked_or_expired_ones_do_not_count(
    store: Backend,
) -> None:
    battle(store)
    now = "2026-03-01T12:00:00.000Z"
    store.add_token("b1", token("a" * 64, "tok-a"), live_cap=2, now=now)
    store.add_token(
        "b1", token("b" * 64, "tok-b", expires_at="2026-03-01T12:00:01.000Z"), live_cap=2, now=now
    )
    with pytest.raises(TooManyTokens) as full:
        store.add_token("b1", token("c" * 64, "tok-c"), live_cap=2, now=now)
    assert full.value.live == 2 and store.token("b1", "c" * 64) is None
    later = "2026-03-01T12:00:01.000Z"  # tok-b expires at this very moment: no longer live
    store.add_token("b1", token("c" * 64, "tok-c"), live_cap=2, now=later)
    store.revoke_token("b1", "tok-a")
    store.add_token("b1", token("d" * 64, "tok-d"), live_cap=2, now=later)
    with pytest.raises(TooManyTokens):
        store.add_token("b1", token("e" * 64, "tok-e"), live_cap=2, now=later)
    store.add_token("b1", token("e" * 64, "tok-e"))  # no cap given: none applies
    assert len(store.tokens("b1")) == 5


def test_a_revoked_token_stays_listed_as_revoked(store: Backend) -> None:
    battle(store)
    store.add_token("b1", token())
    store.add_token("b1", token("e" * 64, "tok-2"))
    revoked = store.revoke_token("b1", "tok-1")
    assert revoked == dataclasses.replace(token(), revoked=True)
    assert store.token("b1", "d" * 64) == revoked
    assert store.token("b1", "e" * 64) == token("e" * 64, "tok-2")
    assert store.revoke_token("b1", "tok-9") is None
    assert store.revoke_token("nope", "tok-1") is None


BUDGET = Budget(owner="token:t1", windows=(Window(amount=2, seconds=60), Window(amount=5, seconds=3600)))


def test_an_append_counts_against_its_budget_and_past_it_appends_nothing(store: Backend) -> None:
    battle(store)
    first = store.append(appending("b1", command(), budget=BUDGET))
    second = store.append(appending("b1", command(key="k"), fingerprint="f", budget=BUDGET))

    assert first.spent is not None and second.spent is not None
    assert (first.spent.window, first.spent.left) == (Window(amount=2, seconds=60), 1)  # the tightest window
    assert second.spent.left == 0 and 0 < second.spent.reset_s <= 60
    with pytest.raises(RateLimited) as limited:
        store.append(
            appending("b1", command(key="k"), fingerprint="f", budget=BUDGET)
        )  # counted before the key
    assert limited.value.spent is not None and limited.value.spent.breached
    assert store.head("b1").version == 3


def test_spend_counts_the_same_budget_as_appends(store: Backend) -> None:
    battle(store)
    store.append(appending("b1", command(), budget=BUDGET))

    spent = store.spend("b1", BUDGET)

    assert spent.left == 0 and not spent.breached
    assert store.spend("b1", BUDGET).breached
    other = dataclasses.replace(BUDGET, owner="token:t2")
    assert store.spend("b1", other).left == 1  # each owner its own counters
    assert store.head("b1").version == 1 + 1


def test_a_refusal_after_counting_says_what_was_spent(store: Backend) -> None:
    battle(store)
    with pytest.raises(VersionConflict) as conflict:
        store.append(appending("b1", command(), expected_version=7, budget=BUDGET))
    assert conflict.value.spent is not None and conflict.value.spent.left == 1
