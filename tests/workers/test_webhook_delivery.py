"""Webhook delivery (workers/webhooks.py) run in-process on the real store against a real loopback receiver:
the CloudEvent and its signature, types, the address check at delivery (DNS rebinding, through an injected
resolver), backoff, the retry horizon, deletion. tests/processes/test_webhooks_live.py runs it in RQ."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from eventstore import clock
from eventstore.records import WebhookRecord
from eventstore.redis_store import RedisEventStore
from service.reading.event_view import Telling, one_event
from service.reading.reveals import Sight
from tests.fixtures.redis_server import Backend
from tests.workers.logs import append, new_battle
from tests.workers.receiver import Receiver
from webhooks.event import TYPES, new_secret
from webhooks.guard import Resolve, parse_allow
from webhooks.settings import WebhookSettings
from workers.projection import project_battle
from workers.webhooks import Delivered, Deliverer, deliver

SETTINGS = WebhookSettings(
    allow=parse_allow("127.0.0.1"),
    timeout_s=0.5,
    retry_base_s=0.05,
    retry_max_s=0.2,
    retry_for_s=3600,
    public_url="https://siege.example",
)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver(hang_s=1.0).running() as running:
        yield running


def registered(store: Backend, battle_id: str, url: str, **fields: object) -> WebhookRecord:
    values: dict[str, object] = {
        "id": "wh_test",
        "url": url,
        "types": TYPES,
        "language": "en",
        "secret": new_secret(),
        "created_at": clock.iso(clock.now()),
        **fields,
    }
    webhook = WebhookRecord(**values)  # type: ignore[arg-type]
    project_battle(store, store, battle_id)  # registered once the battle is folded: it starts after version 1
    store.add_webhook(battle_id, webhook)
    return webhook


def folded(store: Backend, battle_id: str, applied: int = 0, rejected: int = 0) -> None:
    append(store, battle_id, applied)
    append(store, battle_id, rejected, kind="climb")  # no stand, no section: a rejection
    project_battle(store, store, battle_id)


def deliverer(store: Backend, **changes: Any) -> Deliverer:
    return dataclasses.replace(
        Deliverer(
            store=store, webhooks=store, deliveries=store, settings=SETTINGS, requeue=lambda b, w: None
        ),
        **changes,
    )


def until_due(run: Deliverer, battle_id: str, webhook_id: str, bound_s: float = 15.0) -> Delivered:
    """Run the job again each time its retry is due, as the reconciler would, until it stops failing."""
    deadline = time.monotonic() + bound_s
    while True:
        done = deliver(run, battle_id, webhook_id)
        if done.ending not in ("failing", "waiting") or time.monotonic() > deadline:
            return done
        time.sleep(done.retry_in_s or 0.01)


def test_each_outcome_is_a_signed_cloudevent_of_the_outcome_as_get_events_serves_it(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url, language="fr")
    folded(redis_store, battle_id, applied=2, rejected=1)

    done = deliver(deliverer(redis_store), battle_id, webhook.id)

    assert (done.ending, done.delivered, done.cursor) == ("caught_up", 3, 4)
    events = receiver.verified(webhook.secret)  # every signature verifies with standardwebhooks
    telling = Telling(ruleset="epic", language="fr")
    for version, (event, request) in enumerate(zip(events, receiver.requests, strict=True), start=2):
        served = one_event(redis_store, battle_id, version, telling, Sight.of_gm())
        assert served is not None
        assert event["data"] == served["outcome"]
        assert event["specversion"] == "1.0"
        assert event["id"] == request.id == f"{battle_id}:{version}"
        assert event["source"] == f"https://siege.example/battles/{battle_id}"
        assert event["subject"] == str(version)
        assert event["type"] == f"siege.outcome.{served['outcome']['status']}"
        assert datetime.fromisoformat(event["time"]) == datetime.fromisoformat(served["recorded_at"])
        assert request.headers["content-type"] == "application/cloudevents+json"
        assert request.headers["webhook-signature"].startswith("v1,")
    assert [e["type"] for e in events] == ["siege.outcome.applied"] * 2 + ["siege.outcome.rejected"]


def test_only_the_types_asked_for_are_sent_and_the_cursor_passes_the_others(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url, types=("siege.outcome.rejected",))
    folded(redis_store, battle_id, applied=2, rejected=1)

    done = deliver(deliverer(redis_store), battle_id, webhook.id)

    assert (done.delivered, done.skipped, done.cursor) == (1, 2, 4)
    assert receiver.unique_ids() == [f"{battle_id}:4"]
    assert redis_store.webhook_progress(battle_id, webhook.id).cursor == 4  # type: ignore[union-attr]


def test_a_failed_attempt_is_retried_with_the_same_id_and_body_and_the_cursor_waits_for_a_2xx(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url)
    folded(redis_store, battle_id, applied=2)
    receiver.faults = ["500", "reset", "hang"]
    run = deliverer(redis_store)

    first = deliver(run, battle_id, webhook.id)

    assert (first.ending, first.cursor) == ("failing", 1)
    progress = redis_store.webhook_progress(battle_id, webhook.id)
    assert progress is not None and progress.failures == 1 and progress.next_retry_at is not None
    assert until_due(run, battle_id, webhook.id).ending == "caught_up"
    attempts = redis_store.delivery_attempts(battle_id, webhook.id)
    assert [a.status for a in attempts] == ["delivered", "delivered", "failed", "failed", "failed"]
    assert [a.code for a in attempts[2:]] == [None, None, 500]
    assert attempts[2].error == "timed out" and "Connection" in str(attempts[3].error)
    assert all(a.next_retry_at is not None for a in attempts[2:])
    by_version = [r for r in receiver.requests if r.id == f"{battle_id}:2"]
    assert len({r.body for r in by_version}) == 1  # the very same event, only the signature's time moves
    assert receiver.unique_ids() == [f"{battle_id}:2", f"{battle_id}:3"]
    receiver.verified(webhook.secret)


def test_an_answer_dripped_a_byte_at_a_time_still_times_out_as_a_whole(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url)
    folded(redis_store, battle_id, applied=1)
    receiver.faults = ["drip"]  # each byte within the socket timeout, the whole far past it

    assert deliver(deliverer(redis_store), battle_id, webhook.id).ending == "failing"

    attempt = redis_store.delivery_attempts(battle_id, webhook.id)[0]
    assert (attempt.status, attempt.code, attempt.error) == ("failed", None, "timed out")


def test_a_host_that_resolves_elsewhere_at_delivery_is_refused_and_never_connected(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    """DNS rebinding: the name was fine when registered, now it resolves to a private address."""
    battle_id = new_battle(redis_store)
    url = f"http://hooks.rebind.test:{receiver.port}/siege"
    webhook = registered(redis_store, battle_id, url)
    folded(redis_store, battle_id, applied=1)
    answers: dict[str, list[str]] = {"now": ["10.0.0.7"]}
    resolve: Resolve = lambda host, port: answers["now"]  # noqa: E731
    run = deliverer(redis_store, resolve=resolve)

    refused = deliver(run, battle_id, webhook.id)

    assert refused.ending == "failing" and receiver.requests == []
    attempt = redis_store.delivery_attempts(battle_id, webhook.id)[0]
    assert (attempt.status, attempt.code) == ("refused", None)
    assert "10.0.0.7, a private address" in str(attempt.error)
    answers["now"] = ["127.0.0.1"]  # what it resolves to decides, and is what is connected to
    assert until_due(run, battle_id, webhook.id).ending == "caught_up"
    assert [r.headers["host"] for r in receiver.requests] == [f"hooks.rebind.test:{receiver.port}"]


def test_a_host_that_does_not_resolve_in_time_at_delivery_is_refused_and_retried(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, f"http://hooks.slow.test:{receiver.port}/")
    folded(redis_store, battle_id, applied=1)
    released, answered = threading.Event(), threading.Event()

    def stuck(host: str, port: int) -> list[str]:  # a resolver that answers only once released
        released.wait(5)
        answered.set()
        return ["127.0.0.1"]

    settings = dataclasses.replace(SETTINGS, resolve_timeout_s=0.05)
    done = deliver(deliverer(redis_store, settings=settings, resolve=stuck), battle_id, webhook.id)
    gave_up_first = not answered.is_set()  # the delivery did not wait for the resolver's answer
    released.set()

    assert gave_up_first and done.ending == "failing" and receiver.requests == []
    attempt = redis_store.delivery_attempts(battle_id, webhook.id)[0]
    assert attempt.status == "refused"
    assert "hooks.slow.test does not resolve (no answer within 0.05 s)" in str(attempt.error)


def test_localhost_is_refused_at_delivery_when_the_allow_list_names_another_host(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, f"http://localhost:{receiver.port}/")
    folded(redis_store, battle_id, applied=1)
    settings = dataclasses.replace(SETTINGS, allow=parse_allow("hooks.internal"))

    deliver(deliverer(redis_store, settings=settings), battle_id, webhook.id)

    assert receiver.requests == []
    assert "a loopback address" in str(redis_store.delivery_attempts(battle_id, webhook.id)[0].error)


def test_failing_for_the_retry_horizon_marks_the_webhook_failed_and_stops_it(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url)
    folded(redis_store, battle_id, applied=1)
    receiver.always = "500"
    run = deliverer(redis_store, settings=dataclasses.replace(SETTINGS, retry_for_s=0.4))

    done = until_due(run, battle_id, webhook.id)

    assert done.ending == "failed"
    progress = redis_store.webhook_progress(battle_id, webhook.id)
    assert progress is not None and progress.failed and progress.next_retry_at is None
    tried = len(receiver.requests)
    assert tried >= 2
    receiver.always = None
    assert deliver(run, battle_id, webhook.id).ending == "failed"
    assert len(receiver.requests) == tried


def test_a_deleted_webhook_is_sent_nothing_more(redis_store: RedisEventStore, receiver: Receiver) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url)
    folded(redis_store, battle_id, applied=1)
    deliver(deliverer(redis_store), battle_id, webhook.id)
    assert len(receiver.requests) == 1

    redis_store.delete_webhook(battle_id, webhook.id)
    folded(redis_store, battle_id, applied=2)

    assert deliver(deliverer(redis_store), battle_id, webhook.id).ending == "gone"
    assert len(receiver.requests) == 1


def test_a_webhook_another_job_holds_is_left_to_it(redis_store: RedisEventStore, receiver: Receiver) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url)
    folded(redis_store, battle_id, applied=1)
    assert redis_store.try_lock_webhook(battle_id, webhook.id, "another-job", 30_000)

    assert deliver(deliverer(redis_store), battle_id, webhook.id).ending == "busy"
    assert receiver.requests == []


def test_a_retry_is_not_tried_before_it_is_due(redis_store: RedisEventStore, receiver: Receiver) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url)
    folded(redis_store, battle_id, applied=1)
    receiver.faults = ["500"]
    slow = dataclasses.replace(SETTINGS, retry_base_s=600, retry_max_s=600)
    run = deliverer(redis_store, settings=slow)
    deliver(run, battle_id, webhook.id)

    again = deliver(run, battle_id, webhook.id)

    assert again.ending == "waiting" and len(receiver.requests) == 1
    later: Callable[[], datetime] = lambda: clock.now() + timedelta(seconds=601)  # noqa: E731
    assert deliver(dataclasses.replace(run, now=later), battle_id, webhook.id).ending == "caught_up"
    assert len(receiver.unique_ids()) == 1
