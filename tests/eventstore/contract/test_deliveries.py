"""The deliveries' contract, on every backend: a delivery job's claims and locks (given once, expiring), and
its progress and deliveries log, saved together and capped."""

from __future__ import annotations

from eventstore.records import WebhookProgress
from eventstore.roles.webhooks import ATTEMPTS_KEPT
from tests.eventstore.contract.builders import attempt, hook, note
from tests.eventstore.helpers import battle, eventually
from tests.fixtures.redis_server import Backend


def test_progress_and_attempts_are_saved_together_newest_attempt_first(store: Backend) -> None:
    battle(store)
    store.add_webhook("b1", hook())
    failing = WebhookProgress(cursor=0, failures=1, failing_since="t0", next_retry_at="t1")
    assert store.save_webhook_progress("b1", "wh_1", failing, attempt(1))
    assert store.save_webhook_progress("b1", "wh_1", WebhookProgress(cursor=1), attempt(1, "delivered"))
    assert store.webhook_progress("b1", "wh_1") == WebhookProgress(cursor=1)
    assert store.delivery_attempts("b1", "wh_1") == [attempt(1, "delivered"), attempt(1)]
    assert store.delivery_attempts("b1", "wh_1", limit=1) == [attempt(1, "delivered")]


def test_the_attempt_log_is_capped(store: Backend) -> None:
    battle(store)
    store.add_webhook("b1", hook())
    for version in range(1, ATTEMPTS_KEPT + 6):
        store.save_webhook_progress("b1", "wh_1", WebhookProgress(cursor=version), attempt(version))
    kept = store.delivery_attempts("b1", "wh_1", limit=ATTEMPTS_KEPT * 2)
    assert len(kept) == ATTEMPTS_KEPT
    assert kept[0].version == ATTEMPTS_KEPT + 5


def test_a_claim_is_given_once_until_released_or_expired(store: Backend) -> None:
    battle(store)
    store.add_webhook("b1", hook("wh_1"))
    store.add_webhook("b1", hook("wh_2"))
    assert sorted(store.claim_webhooks("b1", 30_000)) == ["wh_1", "wh_2"]
    assert store.claim_webhooks("b1", 30_000) == []
    store.release_webhook("b1", "wh_1")
    assert store.claim_webhooks("b1", 30_000) == ["wh_1"]
    assert store.claim_webhooks("b1", 50, ["wh_2", "wh_gone"]) == []
    store.release_webhook("b1", "wh_2")
    assert store.claim_webhooks("b1", 50, ["wh_2", "wh_gone"]) == ["wh_2"]
    assert eventually(lambda: store.claim_webhooks("b1", 30_000, ["wh_2"]) == ["wh_2"])


def test_no_claim_for_a_battle_without_webhooks(store: Backend) -> None:
    battle(store)
    assert store.claim_webhooks("b1", 30_000) == []
    assert store.claim_webhooks("b1", 30_000, []) == []


def test_a_webhook_lock_has_one_owner_and_expires(store: Backend) -> None:
    battle(store)
    store.add_webhook("b1", hook())
    assert store.try_lock_webhook("b1", "wh_1", "job-a", 50)
    assert not store.try_lock_webhook("b1", "wh_1", "job-b", 30_000)
    assert store.try_lock_webhook("b1", "wh_2", "job-b", 30_000)  # another webhook's lock is its own
    assert store.try_lock_webhook("b1", "wh_1", "job-a", 50)  # the owner renews
    assert eventually(lambda: store.try_lock_webhook("b1", "wh_1", "job-b", 30_000))
    store.unlock_webhook("b1", "wh_1", "job-a")  # a late old owner frees nothing
    assert not store.try_lock_webhook("b1", "wh_1", "job-c", 30_000)
    store.unlock_webhook("b1", "wh_1", "job-b")
    assert store.try_lock_webhook("b1", "wh_1", "job-c", 30_000)


def test_a_failed_webhook_is_never_claimed(store: Backend) -> None:
    battle(store)
    store.add_webhook("b1", hook("wh_1"))
    store.add_webhook("b1", hook("wh_2"))
    store.save_webhook_progress("b1", "wh_1", WebhookProgress(cursor=0, failures=9, failed=True))

    assert store.claim_webhooks("b1", 30_000) == ["wh_2"]
    assert store.claim_webhooks("b1", 30_000, ["wh_1"]) == []


def test_a_note_is_logged_without_touching_the_progress(store: Backend) -> None:
    battle(store)
    store.add_webhook("b1", hook())

    assert store.note_webhook("b1", "wh_1", note("test"))
    assert not store.note_webhook("b1", "wh_gone", note("test"))

    assert store.delivery_attempts("b1", "wh_1") == [note("test")]
    assert store.webhook_progress("b1", "wh_1") == WebhookProgress(cursor=0)
