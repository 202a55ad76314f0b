"""Keeping a webhook healthy (issue 25), in-process on the real store against a real loopback receiver: a
rolled secret signs beside the new one for its overlap, then is erased; a recovered webhook delivers what
it missed in order; a job a recovery supersedes hands over; a test event and a redelivery are sent once,
signed and logged, the cursor untouched; every delivery fits the document's `webhooks` object.
tests/processes/test_webhooks_live.py runs the same through the API and RQ."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from standardwebhooks import Webhook, WebhookVerificationError

from eventstore import clock
from eventstore.records import DeliveryAttempt, WebhookProgress, WebhookRecord
from eventstore.redis_store import RedisEventStore
from tests.fixtures.redis_server import Backend
from tests.workers import contract
from tests.workers.logs import new_battle
from tests.workers.receiver import Received, Receiver
from tests.workers.test_webhook_delivery import deliverer, folded, registered, until_due
from webhooks.event import new_secret, probe_id
from workers.webhook_once import send_once
from workers.webhooks import deliver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver(hang_s=1.0).running() as running:
        yield running


def rolled(store: Backend, battle_id: str, hook: WebhookRecord, overlap_s: float) -> WebhookRecord:
    """What `POST .../secret` stores: a new secret, the old one signing until the overlap ends."""
    until = clock.iso(clock.later(clock.now(), overlap_s))
    new = dataclasses.replace(
        hook, secret=new_secret(), previous_secret=hook.secret, previous_expires_at=until
    )
    assert store.replace_webhook(battle_id, new, hook.secret)
    return new


def verifies(secret: str, receiver: Receiver) -> list[bool]:
    found = []
    for request in receiver.requests:
        try:
            Webhook(secret).verify(request.body, request.headers)
        except WebhookVerificationError:
            found.append(False)
        else:
            found.append(True)
    return found


def test_during_the_overlap_both_secrets_verify_every_delivery_then_only_the_new_one(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    old = registered(redis_store, battle_id, receiver.url)
    new = rolled(redis_store, battle_id, old, overlap_s=1.0)
    folded(redis_store, battle_id, applied=2)

    deliver(deliverer(redis_store), battle_id, old.id)

    assert len(receiver.requests) == 2
    assert verifies(old.secret, receiver) == verifies(new.secret, receiver) == [True, True]
    signatures = receiver.requests[0].headers["webhook-signature"].split(" ")
    assert [s.split(",")[0] for s in signatures] == ["v1", "v1"]
    first = receiver.requests[0]
    signed_at = datetime.fromtimestamp(int(first.headers["webhook-timestamp"]), UTC)
    assert signatures[0] == Webhook(new.secret).sign(first.id, signed_at, first.body.decode())  # new first
    time.sleep(1.1)
    receiver.requests.clear()
    folded(redis_store, battle_id, applied=1)

    deliver(deliverer(redis_store), battle_id, old.id)

    assert verifies(new.secret, receiver) == [True] and verifies(old.secret, receiver) == [False]
    assert " " not in receiver.requests[0].headers["webhook-signature"]
    kept = redis_store.webhook(battle_id, old.id)
    assert kept is not None and (kept.secret, kept.previous_secret, kept.previous_expires_at) == (
        new.secret,
        None,
        None,
    )
    kinds = [line.kind for line in redis_store.delivery_attempts(battle_id, old.id)]
    assert kinds == ["outcome", "secret_dropped", "outcome", "outcome"]
    for request in receiver.requests:
        contract.check(request)


def test_a_recovered_webhook_delivers_every_outcome_it_missed_once_in_order(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url)
    folded(redis_store, battle_id, applied=1)
    receiver.always = "500"
    run = deliverer(
        redis_store, settings=dataclasses.replace(deliverer(redis_store).settings, retry_for_s=0.3)
    )
    assert until_due(run, battle_id, webhook.id).ending == "failed"
    folded(redis_store, battle_id, applied=2, rejected=1)  # missed while failed
    assert deliver(run, battle_id, webhook.id).ending == "failed"
    receiver.always = None

    fresh = redis_store.recover_webhook(battle_id, webhook.id, None, note())
    done = deliver(run, battle_id, webhook.id)

    assert fresh == WebhookProgress(cursor=1, epoch=1)
    assert (done.ending, done.delivered, done.cursor) == ("caught_up", 4, 5)
    assert receiver.unique_ids() == [f"{battle_id}:{v}" for v in (2, 3, 4, 5)]
    assert [r.id for r in receiver.delivered()] == receiver.unique_ids()  # each once
    assert sorted({contract.check(r) for r in receiver.delivered()}) == [
        "siege.outcome.applied",
        "siege.outcome.rejected",
    ]


def test_a_job_a_recovery_supersedes_saves_nothing_and_hands_over(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url)
    folded(redis_store, battle_id, applied=3)
    requeued: list[str] = []
    recovered = False

    def rewind_during_the_first_post() -> None:  # the GM recovers from version 2 while a job delivers
        nonlocal recovered
        if not recovered:
            recovered = True
            redis_store.recover_webhook(battle_id, webhook.id, 1, note())

    original = receiver.record

    def record(received: Received) -> None:
        rewind_during_the_first_post()
        original(received)

    receiver.record = record  # type: ignore[method-assign]
    run = dataclasses.replace(deliverer(redis_store), requeue=lambda b, w: requeued.append(w))

    done = deliver(run, battle_id, webhook.id)

    assert (done.ending, done.cursor) == ("superseded", 1)
    assert requeued == [webhook.id]  # a fresh job takes over from the recovered cursor
    progress = redis_store.webhook_progress(battle_id, webhook.id)
    assert progress == WebhookProgress(cursor=1, epoch=1)
    again = deliver(run, battle_id, webhook.id)
    assert (again.ending, again.cursor) == ("caught_up", 4)


def test_a_test_event_is_sent_once_signed_and_logged_and_moves_nothing(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url, types=("siege.outcome.rejected",))
    folded(redis_store, battle_id, applied=1)
    before = redis_store.webhook_progress(battle_id, webhook.id)
    event_id, asked = probe_id(battle_id), clock.iso(clock.now())

    sent = send_once(
        deliverer(redis_store), battle_id, webhook.id, kind="test", event_id=event_id, requested_at=asked
    )

    assert (sent.ending, sent.code) == ("delivered", 204)
    (event,) = receiver.verified(webhook.secret)
    assert (event["type"], event["id"], receiver.requests[0].id) == ("siege.webhook.test", event_id, event_id)
    assert event["data"] == {"battle_id": battle_id, "webhook_id": webhook.id}
    assert clock.parse_iso(event["time"]) == clock.parse_iso(asked)
    assert "subject" not in event
    assert contract.check(receiver.requests[0]) == "siege.webhook.test"
    (line,) = redis_store.delivery_attempts(battle_id, webhook.id)
    assert (line.kind, line.status, line.code, line.event_id, line.version) == (
        "test",
        "delivered",
        204,
        event_id,
        None,
    )
    assert redis_store.webhook_progress(battle_id, webhook.id) == before


def test_a_redelivery_sends_the_outcome_again_with_its_id_once_even_when_it_fails(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url)
    folded(redis_store, battle_id, applied=2)
    run = deliverer(redis_store)
    deliver(run, battle_id, webhook.id)
    first = receiver.requests[0]
    receiver.faults = ["500"]

    failed = send_once(
        run, battle_id, webhook.id, kind="redelivery", event_id=f"{battle_id}:2", requested_at="", version=2
    )
    again = send_once(
        run, battle_id, webhook.id, kind="redelivery", event_id=f"{battle_id}:2", requested_at="", version=2
    )

    assert (failed.ending, failed.code, again.ending) == ("failed", 500, "delivered")
    assert [r.id for r in receiver.requests] == [
        f"{battle_id}:2",
        f"{battle_id}:3",
        f"{battle_id}:2",
        f"{battle_id}:2",
    ]
    assert receiver.requests[-1].body == first.body  # the very same event, signed anew
    receiver.verified(webhook.secret)
    contract.check(receiver.requests[-1])
    lines = redis_store.delivery_attempts(battle_id, webhook.id, limit=2)
    assert [(a.kind, a.status, a.version, a.next_retry_at) for a in lines] == [
        ("redelivery", "delivered", 2, None),
        ("redelivery", "failed", 2, None),
    ]
    assert redis_store.webhook_progress(battle_id, webhook.id) == WebhookProgress(cursor=3)
    gone = send_once(run, battle_id, webhook.id, kind="redelivery", event_id="x", requested_at="", version=9)
    assert gone.ending == "no_outcome"


def note() -> DeliveryAttempt:
    return DeliveryAttempt(
        at=clock.iso(clock.now()),
        version=None,
        status=None,
        code=None,
        duration_ms=0.0,
        error=None,
        next_retry_at=None,
        kind="recovered",
        note="recovered in a test",
    )


def test_the_contract_check_refuses_what_the_document_does_not_describe(
    redis_store: RedisEventStore, receiver: Receiver
) -> None:
    battle_id = new_battle(redis_store)
    webhook = registered(redis_store, battle_id, receiver.url)
    folded(redis_store, battle_id, applied=1)
    deliver(deliverer(redis_store), battle_id, webhook.id)
    (good,) = receiver.requests
    assert contract.check(good) == "siege.outcome.applied"
    body = json.loads(good.body)
    broken = {
        "no signature": Received(
            {k: v for k, v in good.headers.items() if k != "webhook-signature"}, good.body, 204
        ),
        "another scheme": Received({**good.headers, "webhook-signature": "v2,abc"}, good.body, 204),
        "another media type": Received({**good.headers, "content-type": "application/json"}, good.body, 204),
        "no time": Received(
            good.headers, json.dumps({k: v for k, v in body.items() if k != "time"}).encode(), 204
        ),
        "an unknown type": Received(good.headers, json.dumps({**body, "type": "siege.x"}).encode(), 204),
        "no outcome": Received(good.headers, json.dumps({**body, "data": {"version": 2}}).encode(), 204),
    }

    for why, received in broken.items():
        with pytest.raises(AssertionError):
            contract.check(received)
            pytest.fail(f"{why}: passed the contract")
