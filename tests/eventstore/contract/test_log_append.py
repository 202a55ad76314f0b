"""The log's contract for appends, on every backend: versions in order, an expected version, idempotency
keys and their leases, marking the battle pending, and what an append checks (its token) and counts (its
budget) before it lands."""

from __future__ import annotations

import threading

import pytest

from eventstore.chain import verify_chain
from eventstore.errors import (
    IdempotencyInFlight,
    IdempotencyMismatch,
    RateLimited,
    TokenRefused,
    UnknownBattle,
    VersionConflict,
)
from eventstore.records import TokenRecord, Window
from tests.eventstore.contract.builders import BUDGET, versions
from tests.eventstore.helpers import appending, battle, command, eventually
from tests.fixtures.redis_server import Backend


def test_appends_take_the_next_versions_in_order(store: Backend) -> None:
    battle(store)
    landed = [store.append(appending("b1", command(n=n))).version for n in range(5)]
    assert landed == [2, 3, 4, 5, 6]
    assert versions(store, "b1") == [1, 2, 3, 4, 5, 6]
    assert store.head("b1").version == 6


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


def test_an_expired_key_appends_again(store: Backend) -> None:
    battle(store)
    store.append(appending("b1", command(key="k"), fingerprint="f", retain_s=0.05))
    assert eventually(
        lambda: not store.append(appending("b1", command(key="k"), fingerprint="f", retain_s=60)).replayed
    )
    assert store.head("b1").version == 3
    with pytest.raises(IdempotencyMismatch):  # the new record answers now
        store.append(appending("b1", command(key="k"), fingerprint="g"))


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


def test_a_refusal_after_counting_says_what_was_spent(store: Backend) -> None:
    battle(store)
    with pytest.raises(VersionConflict) as conflict:
        store.append(appending("b1", command(), expected_version=7, budget=BUDGET))
    assert conflict.value.spent is not None and conflict.value.spent.left == 1


# An append made with a token re-checks it atomically: the API may then judge a command on a remembered
# token record without a revocation slipping through.

DIGEST = "d" * 64


def gm_token(digest: str = DIGEST) -> TokenRecord:
    return TokenRecord(digest=digest, id="tok-1", role="gm", created_at="2026-03-01T12:00:00.000Z")


def test_an_append_with_a_standing_token_lands(store: Backend) -> None:
    battle(store)
    store.add_token("b1", gm_token())

    appended = store.append(appending("b1", command(), token_digest=DIGEST))

    assert appended.version == 2 and store.head("b1").version == 2


def test_an_append_with_a_revoked_token_is_refused_and_writes_nothing(store: Backend) -> None:
    battle(store)
    store.add_token("b1", gm_token())
    store.revoke_token("b1", "tok-1")

    with pytest.raises(TokenRefused):
        store.append(appending("b1", command(), token_digest=DIGEST, mark_pending=True))

    assert store.head("b1").version == 1 and store.take_pending(10) == []


def test_an_append_with_a_token_the_battle_never_had_is_refused(store: Backend) -> None:
    battle(store)
    store.add_token("b1", gm_token())

    with pytest.raises(TokenRefused):
        store.append(appending("b1", command(), token_digest="e" * 64))

    assert store.head("b1").version == 1


def test_a_revoked_token_cannot_replay_an_idempotency_key_either(store: Backend) -> None:
    battle(store)
    store.add_token("b1", gm_token())
    store.append(appending("b1", command(key="k1"), fingerprint="f1", token_digest=DIGEST))
    store.revoke_token("b1", "tok-1")

    with pytest.raises(TokenRefused):
        store.append(appending("b1", command(key="k1"), fingerprint="f1", token_digest=DIGEST))


def test_an_unknown_battle_is_still_an_unknown_battle(store: Backend) -> None:
    with pytest.raises(UnknownBattle):
        store.append(appending("nope", command(), token_digest=DIGEST))
