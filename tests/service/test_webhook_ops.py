"""The GM's webhook operations (issue 25) through the API on the real store: rolling a secret (shown once,
an overlap, a 409 while one is open), recovering (from the cursor or a version, never before the
registration unless told), redelivering one outcome and sending a test event (jobs on the webhook queue,
where no worker runs here); each under Idempotency-Key; bad bodies are problem+json."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import redis
from flask import Flask
from rq import Queue

from eventstore.clock import now, parse_iso
from eventstore.queues import DELIVER_WEBHOOK, SEND_WEBHOOK, SERIALIZER
from eventstore.records import WebhookProgress
from eventstore.redis_store import RedisEventStore
from service.commands import idempotency
from tests.fixtures.app import GmClient, config_for
from tests.fixtures.redis_server import Backend
from tests.service.helpers import WALL, accepted, assert_problem, bearer, create_battle, fold, mint
from webhooks.guard import parse_allow
from webhooks.settings import WebhookSettings

RECEIVER = "http://127.0.0.1:9/siege"  # never connected to: no worker runs these jobs here
DAY_S = 24 * 3600


@pytest.fixture
def gm(redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str) -> GmClient:
    settings = WebhookSettings(allow=parse_allow("127.0.0.1"))
    app: Flask = create_app_for(redis_store, redis_client, redis_url, settings)
    return GmClient(app, app.response_class, use_cookies=False)


def create_app_for(store: Backend, client: redis.Redis[Any], url: str, settings: WebhookSettings) -> Flask:
    from service.app import create_app

    app = create_app(config_for(url, webhooks=settings), store=store, queue_redis=client)
    app.testing = True
    return app


def webhook(gm: GmClient, battle_id: str) -> dict[str, Any]:
    created = gm.post(f"/battles/{battle_id}/webhooks", json={"url": RECEIVER})
    assert created.status_code == 201, created.get_json()
    body: dict[str, Any] = created.get_json()
    return body


def path(battle_id: str, hook: dict[str, Any], *rest: str) -> str:
    return "/".join([f"/battles/{battle_id}/webhooks/{hook['id']}", *rest])


def log(gm: GmClient, battle_id: str, hook: dict[str, Any]) -> list[dict[str, Any]]:
    shown = gm.get(path(battle_id, hook, "deliveries"))
    assert shown.status_code == 200
    attempts: list[dict[str, Any]] = shown.get_json()["attempts"]
    return attempts


def jobs(client: redis.Redis[Any]) -> list[tuple[str | None, list[Any]]]:
    queue = Queue(DELIVER_WEBHOOK.queue, connection=client, serializer=SERIALIZER)
    return [(job.func_name, list(job.args)) for job in queue.jobs]


def failed(store: Backend, battle_id: str, hook: dict[str, Any], cursor: int) -> None:
    """What the worker leaves after the whole retry window failed."""
    progress = WebhookProgress(
        cursor=cursor, failures=7, failing_since="2026-03-01T12:00:00.000Z", failed=True
    )
    assert store.save_webhook_progress(battle_id, hook["id"], progress)


def test_a_roll_shows_the_new_secret_once_and_keeps_the_old_one_signing_for_the_overlap(
    gm: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(gm)
    hook = webhook(gm, battle_id)

    rolled = gm.post(path(battle_id, hook, "secret"), json={"overlap_s": 600})

    assert rolled.status_code == 200, rolled.get_json()
    assert rolled.headers["Cache-Control"] == "no-store"
    body = rolled.get_json()
    assert body["secret"].startswith("whsec_") and body["secret"] != hook["secret"]
    until = parse_iso(body["previous_secret_expires_at"])
    assert timedelta(seconds=590) < until - now() <= timedelta(seconds=600)
    stored = redis_store.webhook(battle_id, hook["id"])
    assert stored is not None and (stored.secret, stored.previous_secret) == (body["secret"], hook["secret"])
    listed = gm.get(f"/battles/{battle_id}/webhooks").get_json()
    assert listed[0]["previous_secret_expires_at"] == body["previous_secret_expires_at"]
    assert body["secret"] not in str(listed) and hook["secret"] not in str(listed)
    (line,) = log(gm, battle_id, hook)
    assert (line["kind"], line["status"], line["version"]) == ("secret_rolled", None, None)
    assert body["previous_secret_expires_at"] in line["note"]


def test_the_overlap_defaults_to_a_day_and_a_roll_during_it_takes_overlap_zero_only(
    gm: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(gm)
    hook = webhook(gm, battle_id)
    first = gm.post(path(battle_id, hook, "secret")).get_json()  # no body at all
    assert timedelta(seconds=DAY_S - 10) < parse_iso(first["previous_secret_expires_at"]) - now()

    refused = assert_problem(gm.post(path(battle_id, hook, "secret"), json={}), 409, "webhook-secret-overlap")
    assert refused["previous_secret_expires_at"] == first["previous_secret_expires_at"]
    alone = gm.post(path(battle_id, hook, "secret"), json={"overlap_s": 0})

    assert alone.status_code == 200
    assert alone.get_json()["previous_secret_expires_at"] is None
    stored = redis_store.webhook(battle_id, hook["id"])
    assert stored is not None and (stored.secret, stored.previous_secret) == (
        alone.get_json()["secret"],
        None,
    )
    assert [line["kind"] for line in log(gm, battle_id, hook)] == ["secret_rolled", "secret_rolled"]


def test_a_keyed_roll_repeated_answers_the_same_secret_and_rolls_once(
    gm: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(gm)
    hook = webhook(gm, battle_id)
    keyed = {"Idempotency-Key": "roll-1"}

    first = gm.post(path(battle_id, hook, "secret"), json={"overlap_s": 60}, headers=keyed)
    again = gm.post(path(battle_id, hook, "secret"), json={"overlap_s": 60}, headers=keyed)

    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json()
    assert again.headers["Cache-Control"] == "no-store"
    assert len(log(gm, battle_id, hook)) == 1
    reused = gm.post(path(battle_id, hook, "secret"), json={"overlap_s": 0}, headers=keyed)
    assert_problem(reused, 422, "idempotency-key-reused")
    other = webhook(gm, battle_id)  # a key names one request: another webhook's roll is another request
    assert_problem(
        gm.post(path(battle_id, other, "secret"), json={"overlap_s": 60}, headers=keyed),
        422,
        "idempotency-key-reused",
    )


def test_a_repeat_while_the_first_is_answered_is_a_409_and_a_refusal_gives_the_key_back(
    gm: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(gm)
    hook = webhook(gm, battle_id)
    url = path(battle_id, hook, "test")
    fingerprint = idempotency.fingerprint({"method": "POST", "path": url, "body": {}})
    assert redis_store.hold_request(battle_id, "busy", fingerprint, 30_000) is None  # another process

    in_flight = gm.post(url, headers={"Idempotency-Key": "busy"})
    assert_problem(in_flight, 409, "idempotency-key-in-flight")
    assert in_flight.headers["Retry-After"] == "1"

    keyed = {"Idempotency-Key": "k"}
    assert_problem(gm.post(path(battle_id, hook, "recover"), headers=keyed), 409, "webhook-active")
    failed(redis_store, battle_id, hook, 0)
    assert gm.post(path(battle_id, hook, "recover"), headers=keyed).status_code == 200  # the key was free


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"overlap_s": -1}, "overlap_s"),
        ({"overlap_s": 7 * DAY_S + 1}, "overlap_s"),
        ({"overlap_s": "60"}, "overlap_s"),
        ({"overlap_s": 1.5}, "overlap_s"),
        ({"secret": "whsec_mine"}, "secret"),
    ],
)
def test_a_roll_with_a_bad_body_is_a_422_naming_the_field(
    gm: GmClient, redis_store: RedisEventStore, body: dict[str, Any], field: str
) -> None:
    battle_id = create_battle(gm)
    hook = webhook(gm, battle_id)

    refused = assert_problem(gm.post(path(battle_id, hook, "secret"), json=body), 422, "validation")

    assert field in refused["errors"]
    stored = redis_store.webhook(battle_id, hook["id"])
    assert stored is not None and stored.secret == hook["secret"]


def test_bodies_that_are_no_json_object_are_refused_as_every_body_is(gm: GmClient) -> None:
    battle_id = create_battle(gm)
    hook = webhook(gm, battle_id)

    for operation in ("secret", "recover", "test", "deliveries/1/redeliver"):
        url = path(battle_id, hook, operation)
        assert_problem(gm.post(url, data="{", content_type="application/json"), 400, "malformed-json")
        assert_problem(gm.post(url, data="overlap", content_type="text/plain"), 415, "unsupported-media-type")
        assert_problem(gm.post(url, json=[1]), 422, "validation")
    assert_problem(gm.post(path(battle_id, hook, "test"), json={"now": True}), 422, "validation")


def test_a_failed_webhook_recovers_from_its_cursor_and_a_delivery_job_is_enqueued(
    gm: GmClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle_id = create_battle(gm)
    hook = webhook(gm, battle_id)
    failed(redis_store, battle_id, hook, 0)
    assert gm.get(path(battle_id, hook, "deliveries")).get_json()["state"] == "failed"

    recovered = gm.post(path(battle_id, hook, "recover"))

    assert recovered.status_code == 200, recovered.get_json()
    body = recovered.get_json()
    assert (body["state"], body["delivered_version"], body["failing_since"]) == ("active", 0, None)
    assert jobs(redis_client) == [(DELIVER_WEBHOOK.path, [battle_id, hook["id"]])]
    (line,) = log(gm, battle_id, hook)
    assert (line["kind"], line["version"], line["status"]) == ("recovered", 1, None)
    assert "failed" in line["note"]


def test_a_recovery_goes_back_before_the_registration_only_when_told(
    gm: GmClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle_id = create_battle(gm)
    for _ in range(2):
        accepted(gm, battle_id, WALL)
    fold(redis_store, battle_id)
    hook = webhook(gm, battle_id)
    assert hook["start_version"] == 3
    accepted(gm, battle_id, WALL)

    early = assert_problem(
        gm.post(path(battle_id, hook, "recover"), json={"from_version": 3}), 422, "validation"
    )
    assert "registered at version 3" in early["errors"]["from_version"][0]
    ahead = assert_problem(
        gm.post(path(battle_id, hook, "recover"), json={"from_version": 6}), 422, "validation"
    )
    assert "head is version 4" in ahead["errors"]["from_version"][0]
    assert redis_store.webhook_progress(battle_id, hook["id"]) == WebhookProgress(cursor=3)

    replayed = gm.post(path(battle_id, hook, "recover"), json={"from_version": 4})  # an active one: rewound
    assert (replayed.status_code, replayed.get_json()["delivered_version"]) == (200, 3)
    whole = gm.post(path(battle_id, hook, "recover"), json={"from_version": 1, "before_registration": True})
    assert (whole.status_code, whole.get_json()["delivered_version"]) == (200, 0)
    assert [line["version"] for line in log(gm, battle_id, hook)] == [1, 4]
    # each recovery drops the claim a retry's wait left and enqueues a job at once (the lock serializes them)
    assert jobs(redis_client) == [(DELIVER_WEBHOOK.path, [battle_id, hook["id"]])] * 2


@pytest.mark.parametrize(
    "body",
    [{"from_version": 0}, {"from_version": "2"}, {"before_registration": "yes"}, {"cursor": 2}],
)
def test_a_recovery_with_a_bad_body_is_a_422(
    gm: GmClient, redis_store: RedisEventStore, body: dict[str, Any]
) -> None:
    battle_id = create_battle(gm)
    hook = webhook(gm, battle_id)
    failed(redis_store, battle_id, hook, 0)

    assert_problem(gm.post(path(battle_id, hook, "recover"), json=body), 422, "validation")
    progress = redis_store.webhook_progress(battle_id, hook["id"])
    assert progress is not None and progress.failed


def test_a_redelivery_is_a_job_for_an_outcome_that_was_decided(
    gm: GmClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle_id = create_battle(gm)
    hook = webhook(gm, battle_id)
    accepted(gm, battle_id, WALL)
    fold(redis_store, battle_id)
    pending = accepted(gm, battle_id, WALL)
    keyed = {"Idempotency-Key": "again-2"}

    queued = gm.post(path(battle_id, hook, "deliveries/2/redeliver"), headers=keyed)
    repeat = gm.post(path(battle_id, hook, "deliveries/2/redeliver"), headers=keyed)

    assert queued.status_code == repeat.status_code == 202, queued.get_json()
    assert queued.headers["Location"] == path(battle_id, hook, "deliveries")
    body = queued.get_json()
    assert repeat.get_json() == body
    assert (body["kind"], body["event_id"], body["version"]) == ("redelivery", f"{battle_id}:2", 2)
    (sent,) = jobs(redis_client)
    assert sent == (
        SEND_WEBHOOK.path,
        [battle_id, hook["id"], "redelivery", f"{battle_id}:2", body["requested_at"], 2],
    )
    assert_problem(gm.post(path(battle_id, hook, f"deliveries/{pending}/redeliver")), 409, "outcome-pending")
    assert_problem(gm.post(path(battle_id, hook, "deliveries/9/redeliver")), 404, "version-not-found")
    assert_problem(gm.post(path(battle_id, hook, "deliveries/0/redeliver")), 404, "version-not-found")


def test_a_test_event_is_a_job_with_an_id_of_its_own(gm: GmClient, redis_client: redis.Redis[Any]) -> None:
    battle_id = create_battle(gm)
    hook = webhook(gm, battle_id)

    queued = gm.post(path(battle_id, hook, "test"), json={})

    assert queued.status_code == 202, queued.get_json()
    body = queued.get_json()
    assert body["kind"] == "test" and body["version"] is None
    assert body["event_id"].startswith(f"{battle_id}:test:")
    assert jobs(redis_client) == [
        (SEND_WEBHOOK.path, [battle_id, hook["id"], "test", body["event_id"], body["requested_at"], None])
    ]
    assert gm.post(path(battle_id, hook, "test")).get_json()["event_id"] != body["event_id"]


def test_only_the_gm_operates_a_webhook_and_an_unknown_one_is_a_404(gm: GmClient) -> None:
    battle_id = create_battle(gm)
    hook = webhook(gm, battle_id)
    observer = bearer(mint(gm, battle_id, "observer")["token"])
    gone = {"id": "wh_gone"}

    for operation in ("secret", "recover", "test", "deliveries/1/redeliver"):
        assert_problem(gm.post(path(battle_id, hook, operation), headers=observer), 403, "forbidden")
        assert_problem(gm.post(path(battle_id, gone, operation)), 404, "webhook-not-found")
        assert_problem(gm.post(f"/battles/nope/webhooks/{hook['id']}/{operation}"), 404, "battle-not-found")


def test_the_document_describes_each_operation_and_each_event_a_receiver_gets(gm: GmClient) -> None:
    spec = gm.get("/openapi.json").get_json()
    item = "/battles/{battle_id}/webhooks/{webhook_id}"

    operations = {
        f"{item}/secret": "rollWebhookSecret",
        f"{item}/recover": "recoverWebhook",
        f"{item}/deliveries/{{version}}/redeliver": "redeliverOutcome",
        f"{item}/test": "sendWebhookTest",
    }
    for route, operation_id in operations.items():
        post = spec["paths"][route]["post"]
        assert post["operationId"] == operation_id
        assert "Idempotency-Key" in [p["name"] for p in post["parameters"]]
    assert set(spec["webhooks"]) == {"siege.outcome.applied", "siege.outcome.rejected", "siege.webhook.test"}
    for kind, hooked in spec["webhooks"].items():
        post = hooked["post"]
        assert [p["name"] for p in post["parameters"]] == [
            "webhook-id",
            "webhook-timestamp",
            "webhook-signature",
        ]
        assert all(p["in"] == "header" and p["required"] for p in post["parameters"])
        (media,) = post["requestBody"]["content"]
        assert media == "application/cloudevents+json", kind
