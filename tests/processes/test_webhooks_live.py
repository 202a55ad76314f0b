"""Webhooks through the real stack: gunicorn registers, the RQ projection worker folds and wakes, the RQ
webhook worker delivers, the reconciler retries; a loopback receiver answers 500s, hangs past the timeout
and resets connections, and still acts on every outcome exactly once by webhook-id, in version order."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from eventstore.config import connect
from tests.fixtures.processes import LiveService, launched, with_db_offset
from tests.processes.client import call, create_battle, eventually, send
from tests.workers.logs import FILLER
from tests.workers.receiver import Receiver

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
