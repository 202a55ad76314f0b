"""The webhook part of the storage contract (registrations, progress, attempts, claims, locks), run on every
backend through the `store` fixture (STYLE §5)."""

from __future__ import annotations

import dataclasses

import pytest

from eventstore.errors import UnknownBattle
from eventstore.records import DeliveryAttempt, Projection, RequestRecord, WebhookProgress, WebhookRecord
from eventstore.roles.webhooks import ATTEMPTS_KEPT
from tests.eventstore.helpers import battle, eventually
from tests.fixtures.redis_server import Backend


def hook(webhook_id: str = "wh_1", **fields: object) -> WebhookRecord:
    values: dict[str, object] = {
        "url": "https://hooks.example/siege",
        "types": ("siege.outcome.applied", "siege.outcome.rejected"),
        "language": "en",
        "secret": "whsec_c2VjcmV0",
        "created_at": "2026-03-01T12:00:00.000Z",
        **fields,
    }
    return WebhookRecord(id=webhook_id, **values)  # type: ignore[arg-type]


def attempt(version: int, status: str = "failed") -> DeliveryAttempt:
    return DeliveryAttempt(
        at="2026-03-01T12:00:01.000Z",
        version=version,
        status=status,
        code=500 if status == "failed" else 204,
        duration_ms=3.5,
        error="answered 500" if status == "failed" else None,
        next_retry_at="2026-03-01T12:00:05.000Z" if status == "failed" else None,
    )


def test_a_webhook_is_kept_as_registered_secret_included(store: Backend) -> None:
    battle(store)
    store.add_webhook("b1", hook())
    assert store.webhook("b1", "wh_1") == hook()
    assert store.webhooks("b1") == [hook()]
    assert store.webhook("b1", "wh_2") is None


def test_a_new_webhook_starts_after_the_projected_version(store: Backend) -> None:
    battle(store, commands=3)
    store.save_projection("b1", state=Projection(version=2, state="{}"), outcomes=[(1, "{}"), (2, "{}")])
    assert store.add_webhook("b1", hook()) == WebhookProgress(cursor=2)
    assert store.webhook_progress("b1", "wh_1") == WebhookProgress(cursor=2)


def test_no_webhook_for_an_unknown_battle(store: Backend) -> None:
    with pytest.raises(UnknownBattle):
        store.add_webhook("nope", hook())
    assert store.webhooks("nope") == []


def test_webhooks_are_listed_oldest_first_and_their_battles_indexed(store: Backend) -> None:
    battle(store)
    battle(store, "b2")
    store.add_webhook("b1", hook("wh_b", created_at="2026-03-01T12:00:02.000Z"))
    store.add_webhook("b1", hook("wh_a", created_at="2026-03-01T12:00:01.000Z"))
    store.add_webhook("b2", hook("wh_c"))
    assert [w.id for w in store.webhooks("b1")] == ["wh_a", "wh_b"]
    assert sorted(store.webhook_battles()) == ["b1", "b2"]


def test_deleting_a_battles_last_webhook_drops_it_from_the_index(store: Backend) -> None:
    battle(store)
    store.add_webhook("b1", hook("wh_1"))
    store.add_webhook("b1", hook("wh_2"))
    assert store.delete_webhook("b1", "wh_1")
    assert list(store.webhook_battles()) == ["b1"]  # one left: still indexed
    assert store.delete_webhook("b1", "wh_2")
    assert list(store.webhook_battles()) == []
    store.add_webhook("b1", hook("wh_3"))
    assert list(store.webhook_battles()) == ["b1"]


def test_forgetting_a_battle_keeps_it_indexed_while_it_has_a_webhook(store: Backend) -> None:
    battle(store)
    store.add_webhook("b1", hook())
    store.forget_webhook_battle("b1")
    assert list(store.webhook_battles()) == ["b1"]
    store.forget_webhook_battle("b_none")
    assert list(store.webhook_battles()) == ["b1"]


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


def test_a_deleted_webhook_takes_its_progress_and_attempts_along_and_cannot_be_revived(
    store: Backend,
) -> None:
    battle(store)
    store.add_webhook("b1", hook())
    store.save_webhook_progress("b1", "wh_1", WebhookProgress(cursor=0, failures=1), attempt(1))
    assert store.delete_webhook("b1", "wh_1")
    assert not store.delete_webhook("b1", "wh_1")
    # a delivery job finishing after the delete writes nothing
    assert not store.save_webhook_progress("b1", "wh_1", WebhookProgress(cursor=1), attempt(1, "delivered"))
    assert store.webhook("b1", "wh_1") is None
    assert store.webhook_progress("b1", "wh_1") is None
    assert store.delivery_attempts("b1", "wh_1") == []


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


def note(kind: str, version: int | None = None, text: str = "noted") -> DeliveryAttempt:
    return DeliveryAttempt(
        at="2026-03-01T12:00:02.000Z",
        version=version,
        status=None,
        code=None,
        duration_ms=0.0,
        error=None,
        next_retry_at=None,
        kind=kind,
        note=text,
    )


def test_a_registration_keeps_the_version_it_started_after(store: Backend) -> None:
    battle(store, commands=3)
    store.save_projection("b1", state=Projection(version=2, state="{}"), outcomes=[(1, "{}"), (2, "{}")])
    store.add_webhook("b1", hook())
    assert store.webhook("b1", "wh_1") == hook(start_version=2)


def test_a_registration_is_replaced_only_while_its_secret_is_the_one_read(store: Backend) -> None:
    battle(store)
    store.add_webhook("b1", hook())
    rolled = hook(secret="whsec_bmV3", previous_secret="whsec_c2VjcmV0", previous_expires_at="t1")

    assert store.replace_webhook("b1", rolled, "whsec_c2VjcmV0", note("secret_rolled"))
    assert not store.replace_webhook("b1", hook(secret="whsec_b3RoZXI="), "whsec_c2VjcmV0")  # rolled since
    assert not store.replace_webhook("b1", hook("wh_gone"), "whsec_c2VjcmV0")

    assert store.webhook("b1", "wh_1") == rolled
    assert store.delivery_attempts("b1", "wh_1") == [note("secret_rolled")]


def test_a_recovery_clears_the_failures_moves_the_cursor_and_supersedes_a_running_job(
    store: Backend,
) -> None:
    battle(store)
    store.add_webhook("b1", hook())
    failed = WebhookProgress(cursor=4, failures=9, failing_since="t0", failed=True)
    assert store.save_webhook_progress("b1", "wh_1", failed, attempt(5))
    store.claim_webhooks("b1", 30_000, ["wh_1"])  # a claim left behind is dropped too

    kept = store.recover_webhook("b1", "wh_1", None, note("recovered"))
    assert kept == WebhookProgress(cursor=4, epoch=1)
    rewound = store.recover_webhook("b1", "wh_1", 1, note("recovered"))
    assert rewound == WebhookProgress(cursor=1, epoch=2)

    assert store.webhook_progress("b1", "wh_1") == rewound
    assert [(line.kind, line.version) for line in store.delivery_attempts("b1", "wh_1", limit=2)] == [
        ("recovered", 2),
        ("recovered", 5),
    ]
    assert store.claim_webhooks("b1", 30_000, ["wh_1"]) == ["wh_1"]
    # a job that read the progress before the recovery saves nothing
    assert not store.save_webhook_progress("b1", "wh_1", dataclasses.replace(failed, cursor=9), attempt(9))
    assert store.save_webhook_progress("b1", "wh_1", WebhookProgress(cursor=2, epoch=2), attempt(2))
    assert store.webhook_progress("b1", "wh_1") == WebhookProgress(cursor=2, epoch=2)
    assert store.recover_webhook("b1", "wh_gone", None, note("recovered")) is None


def test_a_note_is_logged_without_touching_the_progress(store: Backend) -> None:
    battle(store)
    store.add_webhook("b1", hook())

    assert store.note_webhook("b1", "wh_1", note("test"))
    assert not store.note_webhook("b1", "wh_gone", note("test"))

    assert store.delivery_attempts("b1", "wh_1") == [note("test")]
    assert store.webhook_progress("b1", "wh_1") == WebhookProgress(cursor=0)


def test_an_idempotency_key_is_held_then_answered_or_released(store: Backend) -> None:
    battle(store)
    assert store.hold_request("b1", "key 1", "fp-a", 30_000) is None
    assert store.hold_request("b1", "key 1", "fp-a", 30_000) == RequestRecord(fingerprint="fp-a")
    assert store.hold_request("b2", "key 1", "fp-a", 30_000) is None  # keys are per battle

    store.answer_request("b1", "key 1", "fp-a", '200 {"id": "wh_1"}', 30_000)
    answered = RequestRecord(fingerprint="fp-a", answer='200 {"id": "wh_1"}')
    assert store.hold_request("b1", "key 1", "fp-b", 30_000) == answered
    store.release_request("b1", "key 1", "fp-a")  # an answered key is kept
    assert store.hold_request("b1", "key 1", "fp-a", 30_000) == answered

    assert store.hold_request("b1", "key 2", "fp-c", 30_000) is None
    store.release_request("b1", "key 2", "fp-other")  # another request's release frees nothing
    assert store.hold_request("b1", "key 2", "fp-c", 30_000) == RequestRecord(fingerprint="fp-c")
    store.release_request("b1", "key 2", "fp-c")
    assert store.hold_request("b1", "key 2", "fp-d", 50) is None
    assert eventually(lambda: store.hold_request("b1", "key 2", "fp-e", 30_000) is None)  # the lease lapsed
