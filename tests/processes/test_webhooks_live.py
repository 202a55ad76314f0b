"""Webhooks through the real stack: gunicorn registers, the RQ projection worker folds and wakes, the RQ
webhook worker delivers, the reconciler retries; a loopback receiver answers 500s, hangs past the timeout
and resets connections, and still acts on every outcome exactly once by webhook-id, in version order. And
the GM keeps a webhook healthy (issue 25): a secret rolled with an overlap, a failed webhook recovered, a
redelivery and a test event; every delivery fits openapi.yaml's `webhooks` object."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from standardwebhooks import Webhook, WebhookVerificationError

from eventstore.config import connect
from tests.fixtures.processes import LiveService, launched, with_db_offset
from tests.processes.client import call, create_battle, eventually, send
from tests.workers import contract
from tests.workers.logs import FILLER
from tests.workers.receiver import Received, Receiver

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]
DB_OFFSET = 10  # clear of the tests' databases and of the other stacks' (8, 9, 12, 13, 14)
SETTINGS = {
    "SIEGE_WEBHOOK_ALLOW": "127.0.0.1",
    "SIEGE_WEBHOOK_TIMEOUT_S": "0.5",
    "SIEGE_WEBHOOK_RETRY_BASE_S": "0.2",
    "SIEGE_WEBHOOK_RETRY_MAX_S": "1",
    "SIEGE_WEBHOOK_RETRY_FOR_S": "6",
    "SIEGE_PUBLIC_URL": "https://siege.example",
}
BOUND_S = 60.0
OVERLAP_S = 6  # long enough for three outcomes to be delivered on a loaded machine
# sent while the webhook is failed: an applied outcome, a rejected one (an unknown stand)
MISSED = [{"type": FILLER}, {"type": "climb", "stand_id": "ghost", "section_id": "W9"}]


@pytest.fixture(scope="module")
def stack(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveService]:
    url = with_db_offset(redis_url, DB_OFFSET)
    connect(url).flushdb()
    log_dir: Path = tmp_path_factory.mktemp("webhooks")
    with launched(url, url, log_dir, settings=SETTINGS) as live:
        yield live


def gm(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def register(live: LiveService, battle_id: str, token: str, url: str) -> dict[str, Any]:
    reply = call("POST", f"{live.base_url}/battles/{battle_id}/webhooks", {"url": url}, gm(token))
    assert reply.status == 201, reply.body
    body: dict[str, Any] = reply.body
    return body


def deliveries(live: LiveService, battle_id: str, token: str, webhook_id: str) -> dict[str, Any]:
    reply = call(
        "GET", f"{live.base_url}/battles/{battle_id}/webhooks/{webhook_id}/deliveries", None, gm(token)
    )
    assert reply.status == 200, reply.body
    body: dict[str, Any] = reply.body
    return body


def test_every_outcome_arrives_once_by_webhook_id_in_order_through_500s_hangs_and_resets(
    stack: LiveService,
) -> None:
    faults = ["500", "hang", "ok", "reset", "ok", "500", "500", "ok", "hang", "ok", "reset"]
    with Receiver(faults, hang_s=1.0).running() as receiver:
        battle_id, token = create_battle(stack)
        assert send(stack, battle_id, token, {"type": FILLER}, wait_s=5).status == 200  # v2 folded first
        webhook = register(stack, battle_id, token, receiver.url)
        versions = [send(stack, battle_id, token, {"type": FILLER}).body["version"] for _ in range(8)]
        expected = [f"{battle_id}:{v}" for v in versions]

        eventually(lambda: receiver.unique_ids() == expected, BOUND_S, "every outcome, in version order")

        events = receiver.verified(webhook["secret"])  # raises unless every signature verifies
        assert [e["source"] for e in events] == [f"https://siege.example/battles/{battle_id}"] * len(events)
        assert receiver.faults == []  # every injected fault was met
        shown = deliveries(stack, battle_id, token, webhook["id"])
        statuses = [a["status"] for a in shown["attempts"]]
        assert statuses.count("delivered") >= len(versions) and "failed" in statuses
        failed = [a for a in shown["attempts"] if a["status"] == "failed"]
        assert all(a["next_retry_at"] is not None and a["error"] for a in failed)
        assert {a["code"] for a in failed} >= {500, None}
        assert (shown["state"], shown["delivered_version"]) == ("active", versions[-1])


def test_a_deleted_webhook_stops_while_another_goes_on(stack: LiveService) -> None:
    with Receiver().running() as kept, Receiver().running() as dropped:
        battle_id, token = create_battle(stack)
        assert send(stack, battle_id, token, {"type": FILLER}, wait_s=5).status == 200
        register(stack, battle_id, token, kept.url)
        gone = register(stack, battle_id, token, dropped.url)
        first = send(stack, battle_id, token, {"type": FILLER}).body["version"]
        eventually(lambda: len(dropped.unique_ids()) == 1, BOUND_S, "the first outcome at both")

        path = f"{stack.base_url}/battles/{battle_id}/webhooks/{gone['id']}"
        assert call("DELETE", path, None, gm(token)).status == 204
        later = [send(stack, battle_id, token, {"type": FILLER}).body["version"] for _ in range(3)]

        expected = [f"{battle_id}:{v}" for v in [first, *later]]
        eventually(lambda: kept.unique_ids() == expected, BOUND_S, "the later outcomes at the kept webhook")
        assert dropped.unique_ids() == [f"{battle_id}:{first}"]


def test_a_receiver_failing_for_the_whole_horizon_marks_its_webhook_failed(stack: LiveService) -> None:
    with Receiver().running() as receiver:
        receiver.always = "500"
        battle_id, token = create_battle(stack)
        assert send(stack, battle_id, token, {"type": FILLER}, wait_s=5).status == 200
        webhook = register(stack, battle_id, token, receiver.url)
        send(stack, battle_id, token, {"type": FILLER})

        eventually(
            lambda: deliveries(stack, battle_id, token, webhook["id"])["state"] == "failed",
            BOUND_S,
            "the webhook to be marked failed",
        )

        shown = deliveries(stack, battle_id, token, webhook["id"])
        assert shown["next_retry_at"] is None and shown["failing_since"] is not None
        assert len(shown["attempts"]) >= 3 and {a["code"] for a in shown["attempts"]} == {500}
        listed = call("GET", f"{stack.base_url}/battles/{battle_id}/webhooks", None, gm(token)).body
        assert [w["state"] for w in listed] == ["failed"]


def verifies(secret: str, received: Received) -> bool:
    try:
        Webhook(secret).verify(received.body, received.headers)
    except WebhookVerificationError:
        return False
    return True


def kinds(live: LiveService, battle_id: str, token: str, webhook_id: str) -> list[str]:
    return [a["kind"] for a in deliveries(live, battle_id, token, webhook_id)["attempts"]]


def test_during_an_overlap_both_secrets_verify_every_delivery_and_after_it_only_the_new_one(
    stack: LiveService,
) -> None:
    with Receiver().running() as receiver:
        battle_id, token = create_battle(stack)
        assert send(stack, battle_id, token, {"type": FILLER}, wait_s=5).status == 200
        webhook = register(stack, battle_id, token, receiver.url)
        before = send(stack, battle_id, token, {"type": FILLER}).body["version"]
        eventually(lambda: len(receiver.unique_ids()) == 1, BOUND_S, "the first outcome")
        path = f"{stack.base_url}/battles/{battle_id}/webhooks/{webhook['id']}/secret"

        rolled = call("POST", path, {"overlap_s": OVERLAP_S}, gm(token))
        assert rolled.status == 200, rolled.body
        old, new = webhook["secret"], rolled.body["secret"]
        ends = datetime.fromisoformat(rolled.body["previous_secret_expires_at"]).timestamp()
        during = [send(stack, battle_id, token, {"type": FILLER}).body["version"] for _ in range(3)]
        eventually(lambda: len(receiver.unique_ids()) == 4, BOUND_S, "the outcomes sent during the overlap")
        time.sleep(max(ends - time.time(), 0) + 0.5)
        after = [send(stack, battle_id, token, {"type": FILLER}).body["version"] for _ in range(2)]
        expected = [f"{battle_id}:{v}" for v in [before, *during, *after]]
        eventually(lambda: receiver.unique_ids() == expected, BOUND_S, "the outcomes sent after it")

        signed_in = {r.id: int(r.headers["webhook-timestamp"]) for r in receiver.delivered()}
        for request in receiver.requests:
            version = int(request.id.split(":")[1])
            if version in during:
                assert signed_in[request.id] < ends, "sent during the overlap"  # the machine kept up
                assert verifies(old, request) and verifies(new, request), request.headers
            elif version in after:
                assert verifies(new, request) and not verifies(old, request), request.headers
            contract.check(request)
        logged = kinds(stack, battle_id, token, webhook["id"])
        assert logged.index("secret_dropped") < logged.index("secret_rolled")  # newest first


def test_a_webhook_failed_for_its_whole_window_is_recovered_and_delivers_every_missed_outcome_once(
    stack: LiveService,
) -> None:
    with Receiver().running() as receiver:
        receiver.always = "500"
        battle_id, token = create_battle(stack)
        assert send(stack, battle_id, token, {"type": FILLER}, wait_s=5).status == 200
        webhook = register(stack, battle_id, token, receiver.url)
        first = send(stack, battle_id, token, {"type": FILLER}).body["version"]
        eventually(
            lambda: deliveries(stack, battle_id, token, webhook["id"])["state"] == "failed",
            BOUND_S,
            "the webhook to be marked failed after SIEGE_WEBHOOK_RETRY_FOR_S",
        )
        missed = [send(stack, battle_id, token, command).body["version"] for command in MISSED]
        last = send(stack, battle_id, token, {"type": FILLER}, wait_s=5)  # all three folded once it answers
        assert last.status == 200, last.body
        missed.append(last.body["version"])
        tried = len(receiver.requests)
        time.sleep(1.5)  # a failed webhook is sent nothing, whatever is folded
        assert len(receiver.requests) == tried and receiver.delivered() == []
        receiver.always = None
        path = f"{stack.base_url}/battles/{battle_id}/webhooks/{webhook['id']}/recover"
        keyed = {**gm(token), "Idempotency-Key": f"recover-{battle_id}"}

        recovered = call("POST", path, None, keyed)
        repeated = call("POST", path, None, keyed)

        assert recovered.status == repeated.status == 200, recovered.body
        assert repeated.body == recovered.body
        assert (recovered.body["state"], recovered.body["delivered_version"]) == ("active", first - 1)
        expected = [f"{battle_id}:{v}" for v in [first, *missed]]
        eventually(lambda: receiver.unique_ids() == expected, BOUND_S, "every missed outcome, in order")
        assert [r.id for r in receiver.delivered()] == expected  # each once
        events = receiver.verified(webhook["secret"])
        assert {e["type"] for e in events} == {"siege.outcome.applied", "siege.outcome.rejected"}
        assert {contract.check(r) for r in receiver.delivered()} == {e["type"] for e in events}
        shown = deliveries(stack, battle_id, token, webhook["id"])
        assert (shown["state"], shown["delivered_version"]) == ("active", missed[-1])
        assert kinds(stack, battle_id, token, webhook["id"]).count("recovered") == 1  # the repeat did nothing


def test_a_redelivery_and_a_test_event_arrive_signed_and_are_logged(stack: LiveService) -> None:
    with Receiver().running() as receiver:
        battle_id, token = create_battle(stack)
        assert send(stack, battle_id, token, {"type": FILLER}, wait_s=5).status == 200
        webhook = register(stack, battle_id, token, receiver.url)
        version = send(stack, battle_id, token, {"type": FILLER}).body["version"]
        eventually(lambda: len(receiver.requests) == 1, BOUND_S, "the outcome")
        base = f"{stack.base_url}/battles/{battle_id}/webhooks/{webhook['id']}"

        tested = call("POST", f"{base}/test", None, gm(token))
        again = call("POST", f"{base}/deliveries/{version}/redeliver", None, gm(token))

        assert tested.status == again.status == 202, (tested.body, again.body)
        eventually(lambda: len(receiver.requests) == 3, BOUND_S, "the test event and the redelivery")
        events = receiver.verified(webhook["secret"])  # each signed as every delivery is
        by_id = {e["id"]: e for e in events}
        assert by_id[tested.body["event_id"]]["type"] == "siege.webhook.test"
        assert [r.id for r in receiver.requests].count(f"{battle_id}:{version}") == 2
        assert sorted(contract.check(r) for r in receiver.requests) == [
            "siege.outcome.applied",
            "siege.outcome.applied",
            "siege.webhook.test",
        ]
        shown = deliveries(stack, battle_id, token, webhook["id"])
        sent = {a["kind"]: a for a in shown["attempts"]}
        assert sent["test"]["event_id"] == tested.body["event_id"] and sent["test"]["status"] == "delivered"
        assert (sent["redelivery"]["version"], sent["redelivery"]["status"]) == (version, "delivered")
        assert shown["delivered_version"] == version  # neither moved the cursor
