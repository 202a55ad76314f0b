"""The webhooks' contract, on every backend: registrations (secret included), where each starts, the index
of battles with webhooks, deletion, replacing a registration and recovering one."""

from __future__ import annotations

import dataclasses

import pytest

from eventstore.errors import UnknownBattle
from eventstore.records import Projection, WebhookProgress
from tests.eventstore.contract.builders import attempt, hook, note
from tests.eventstore.helpers import battle
from tests.fixtures.redis_server import Backend


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
