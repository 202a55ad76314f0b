"""When webhook delivery jobs are enqueued (workers/webhook_schedule.py): once per webhook by the fold that
wrote outcomes, and by the reconciler for a webhook that lags and is due; never twice while claimed."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Any

import redis

from eventstore import clock, keys
from eventstore.records import WebhookProgress, WebhookRecord
from eventstore.redis_store import RedisEventStore
from tests.fixtures.redis_server import Backend
from tests.workers.logs import append, new_battle
from webhooks.event import TYPES
from workers.drain import drain_pending
from workers.projection import project_battle
from workers.queue import projection_queue
from workers.reconcile import reconcile
from workers.webhook_schedule import reconcile_webhooks, wake, wake_all

Jobs = list[tuple[str, str]]


HOOK = WebhookRecord(
    id="wh_0",
    url="https://hooks.example/",
    types=TYPES,
    language="en",
    secret="whsec_c2VjcmV0",
    created_at="2026-03-01T12:00:00.000Z",
)


def with_webhooks(store: Backend, *ids: str) -> str:
    battle_id = new_battle(store)
    project_battle(store, store, battle_id)
    for webhook_id in ids:
        store.add_webhook(
            battle_id, dataclasses.replace(HOOK, id=webhook_id, created_at=clock.iso(clock.now()))
        )
    return battle_id


def test_a_fold_that_wrote_outcomes_wakes_each_webhook_once(redis_store: RedisEventStore) -> None:
    battle_id = with_webhooks(redis_store, "wh_a", "wh_b")
    quiet = new_battle(redis_store)
    append(redis_store, battle_id, 3)
    for pending in (battle_id, quiet):
        redis_store.mark_pending(pending)
    woken: list[str] = []

    drain_pending(
        redis_store, redis_store, redis_store, requeue=lambda: None, folded=woken.extend, linger_s=0
    )

    assert sorted(woken) == sorted([battle_id, quiet])
    jobs: Jobs = []
    assert wake(redis_store, redis_store, lambda b, w: jobs.append((b, w)), battle_id) == 2
    assert (
        wake(redis_store, redis_store, lambda b, w: jobs.append((b, w)), battle_id) == 0
    )  # claimed: no job per fold
    assert wake(redis_store, redis_store, lambda b, w: jobs.append((b, w)), quiet) == 0
    assert sorted(jobs) == [(battle_id, "wh_a"), (battle_id, "wh_b")]


def test_a_rounds_wake_claims_the_webhooks_of_the_battles_that_have_some(
    redis_store: RedisEventStore,
) -> None:
    hooked, other = with_webhooks(redis_store, "wh_a", "wh_b"), with_webhooks(redis_store, "wh_c")
    quiet = new_battle(redis_store)
    jobs: Jobs = []

    assert wake_all(redis_store, redis_store, lambda b, w: jobs.append((b, w)), [hooked, quiet, other]) == 3
    assert (
        wake_all(redis_store, redis_store, lambda b, w: jobs.append((b, w)), [hooked, quiet, other]) == 0
    )  # claimed
    assert wake_all(redis_store, redis_store, lambda b, w: jobs.append((b, w)), []) == 0
    assert sorted(jobs) == sorted([(hooked, "wh_a"), (hooked, "wh_b"), (other, "wh_c")])


def test_have_webhooks_answers_for_each_battle(store: Backend) -> None:
    hooked, quiet = with_webhooks(store, "wh_a"), new_battle(store)
    gone = with_webhooks(store, "wh_b")
    store.delete_webhook(gone, "wh_b")

    assert store.have_webhooks([hooked, quiet, gone, "no-such-battle"]) == [True, False, False, False]


def test_a_fold_with_nothing_new_wakes_nobody(redis_store: RedisEventStore) -> None:
    battle_id = with_webhooks(redis_store, "wh_a")
    redis_store.mark_pending(battle_id)
    woken: list[str] = []

    drain_pending(
        redis_store, redis_store, redis_store, requeue=lambda: None, folded=woken.extend, linger_s=0
    )

    assert woken == []


def test_a_battle_known_to_have_no_webhooks_is_not_woken_and_the_reconciler_catches_up(
    redis_store: RedisEventStore,
) -> None:
    battle_id = with_webhooks(redis_store)
    jobs: Jobs = []
    assert (
        wake(redis_store, redis_store, lambda b, w: jobs.append((b, w)), battle_id) == 0
    )  # now known to have none
    with_hook = dataclasses.replace(HOOK, id="wh_late", created_at=clock.iso(clock.now()))
    redis_store.add_webhook(battle_id, with_hook)
    append(redis_store, battle_id, 2)
    project_battle(redis_store, redis_store, battle_id)

    assert (
        wake(redis_store, redis_store, lambda b, w: jobs.append((b, w)), battle_id) == 0
    )  # within KNOWN_FOR_S
    assert (
        reconcile_webhooks(redis_store, redis_store, redis_store, lambda b, w: jobs.append((b, w))) == 1
    )  # nothing is lost
    assert jobs == [(battle_id, "wh_late")]


def test_the_reconciler_drops_a_battle_without_webhooks_from_its_index(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle_id = with_webhooks(redis_store, "wh_a")
    redis_store.delete_webhook(battle_id, "wh_a")
    redis_store.add_webhook(battle_id, dataclasses.replace(HOOK, id="wh_b"))
    redis_client.hdel(keys.webhooks(battle_id), "wh_b")  # gone behind the store's back: still indexed
    assert list(redis_store.webhook_battles()) == [battle_id]

    assert reconcile_webhooks(redis_store, redis_store, redis_store, lambda b, w: None) == 0

    assert list(redis_store.webhook_battles()) == []


def test_the_reconciler_enqueues_a_lagging_webhook_whose_job_was_lost(redis_store: RedisEventStore) -> None:
    battle_id = with_webhooks(redis_store, "wh_a")
    append(redis_store, battle_id, 2)
    project_battle(redis_store, redis_store, battle_id)  # folded, but no wake: as if the job were lost
    jobs: Jobs = []

    assert reconcile_webhooks(redis_store, redis_store, redis_store, lambda b, w: jobs.append((b, w))) == 1
    assert (
        reconcile_webhooks(redis_store, redis_store, redis_store, lambda b, w: jobs.append((b, w))) == 0
    )  # its claim holds
    redis_store.release_webhook(battle_id, "wh_a")  # the job ran and was lost again
    assert reconcile_webhooks(redis_store, redis_store, redis_store, lambda b, w: jobs.append((b, w))) == 1
    assert jobs == [(battle_id, "wh_a")] * 2


def test_the_reconciler_leaves_caught_up_failed_and_not_yet_due_webhooks(
    redis_store: RedisEventStore,
) -> None:
    battle_id = with_webhooks(redis_store, "wh_caught_up", "wh_failed", "wh_waiting", "wh_due")
    append(redis_store, battle_id, 2)
    project_battle(redis_store, redis_store, battle_id)
    now = clock.now()
    lagging = WebhookProgress(cursor=1, failures=3, failing_since=clock.iso(now))
    soon, past = clock.iso(now + timedelta(seconds=30)), clock.iso(now - timedelta(seconds=1))
    for webhook_id, progress in {
        "wh_caught_up": WebhookProgress(cursor=3),
        "wh_failed": dataclasses.replace(lagging, failed=True),
        "wh_waiting": dataclasses.replace(lagging, next_retry_at=soon),
        "wh_due": dataclasses.replace(lagging, next_retry_at=past),
    }.items():
        redis_store.save_webhook_progress(battle_id, webhook_id, progress)
    jobs: Jobs = []

    reconcile_webhooks(redis_store, redis_store, redis_store, lambda b, w: jobs.append((b, w)), now)

    assert jobs == [(battle_id, "wh_due")]
    reconcile_webhooks(
        redis_store, redis_store, redis_store, lambda b, w: jobs.append((b, w)), now + timedelta(seconds=31)
    )
    assert jobs == [(battle_id, "wh_due"), (battle_id, "wh_waiting")]


def test_a_reconcile_pass_reports_the_webhook_jobs_it_enqueued(redis_store: RedisEventStore) -> None:
    battle_id = with_webhooks(redis_store, "wh_a")
    append(redis_store, battle_id, 1)
    project_battle(redis_store, redis_store, battle_id)
    jobs: Jobs = []
    queue = projection_queue(redis_store.client)  # type: ignore[arg-type]

    done = reconcile(
        redis_store,
        redis_store,
        redis_store,
        redis_store,
        redis_store,
        queue,
        lambda b, w: jobs.append((b, w)),
    )

    assert (done.webhooks, jobs) == (1, [(battle_id, "wh_a")])
