"""The schedule's contract, on every backend: pending marks coalesced into as few projection jobs as carry
them, and a lost job's flag expiring."""

from __future__ import annotations

from tests.eventstore.helpers import eventually
from tests.fixtures.redis_server import Backend, StoreFactory


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


def test_battles_marked_pending_again_are_all_taken_by_the_next_round(store: Backend) -> None:
    store.mark_pending_again(["b1", "b2", "b3"])
    store.mark_pending_again([])

    assert sorted(store.take_pending(10)) == ["b1", "b2", "b3"]


def test_marking_pending_again_says_whether_a_job_is_wanted(store: Backend) -> None:
    assert store.mark_pending_again([]) is False
    assert store.mark_pending_again(["b1", "b2"]) is True
    assert store.mark_pending_again(["b3"]) is False  # coalesced: one job is already on its way
