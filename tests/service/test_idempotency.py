"""Idempotency-Key on commands (IETF httpapi-idempotency-key draft): the same key and body
answer the original response and append nothing; another body is a 422; a repeat while the first request is
still being answered is a 409; keys belong to one battle and last SIEGE_IDEMPOTENCY_TTL_S."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from eventstore.canonical import canonical_json
from eventstore.records import NewEntry
from eventstore.redis_store import RedisEventStore
from service.commands.idempotency import fingerprint
from tests.eventstore.helpers import appending
from tests.fixtures.redis_server import Backend
from tests.service.helpers import CSM, WALL, assert_problem, create_battle, fold, head_version, send

KEY = {"Idempotency-Key": "3f1c-a-uuid-or-so"}


def same_answer(first: TestResponse, again: TestResponse) -> None:
    assert again.status_code == first.status_code
    assert again.get_data() == first.get_data()
    for header in ("Location", "Preference-Applied", "Content-Type"):
        assert again.headers.get(header) == first.headers.get(header)


def test_a_repeat_answers_the_original_202_and_appends_nothing(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    first = send(client, battle_id, WALL, headers=KEY)
    again = send(client, battle_id, WALL, headers=KEY)

    assert first.status_code == 202
    same_answer(first, again)
    assert head_version(client, battle_id) == 2


def test_a_repeat_answers_the_original_outcome_of_a_wait(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    waited = _waiting(client, battle_id, WALL, {**KEY, "Prefer": "wait=5"})
    _fold_when_appended(client, redis_store, battle_id, 2)
    first = waited.result()

    again = send(client, battle_id, WALL, headers={**KEY, "Prefer": "wait=5"})

    assert first.status_code == 200 and first.get_json()["status"] == "applied"
    same_answer(first, again)


def test_a_repeat_of_a_met_wait_reads_the_stored_outcome_taking_no_waiter_and_no_store_wait(
    client: FlaskClient, redis_store: RedisEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    battle_id = create_battle(client)
    waited = _waiting(client, battle_id, WALL, {**KEY, "Prefer": "wait=5"})
    _fold_when_appended(client, redis_store, battle_id, 2)
    first = waited.result()

    def not_here(*_args: Any) -> None:
        raise AssertionError("a replay waited on the store, not on the process's hub")

    monkeypatch.setattr(redis_store, "wait_outcome", not_here)
    waiters = client.application.extensions["siege"].waiters
    taken = 0
    while waiters.acquire(blocking=False):  # every waiter slot busy: a first wait would answer 202 now
        taken += 1
    try:
        again = send(client, battle_id, WALL, headers={**KEY, "Prefer": "wait=5"})
    finally:
        for _ in range(taken):
            waiters.release()

    assert taken > 0 and again.status_code == 200  # the first answer, though no slot was free
    same_answer(first, again)


def test_a_keyed_record_keeps_the_fingerprint_and_version_only(
    client: FlaskClient, redis_client: Any
) -> None:
    battle_id = create_battle(client)
    send(client, battle_id, WALL, headers=KEY)  # no wait: the 202 is decided by the append, nothing in flight

    record = redis_client.hget(f"siege:{{{battle_id}}}:idem", KEY["Idempotency-Key"])

    assert record == f"{fingerprint(WALL)} 2".encode()  # the replayed 202 is read back from the log entry


def test_the_same_command_spelled_differently_is_the_same_body(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    first = send(client, battle_id, WALL, headers=KEY)

    reordered = client.post(
        f"/battles/{battle_id}/commands",
        data='{ "kind" : "wall", "id": "W1",  "type": "add_fortification" }',
        content_type="application/json",
        headers=KEY,
    )

    same_answer(first, reordered)
    assert head_version(client, battle_id) == 2


def test_the_same_key_with_another_body_is_a_422_and_appends_nothing(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    send(client, battle_id, WALL, headers=KEY)

    problem = assert_problem(send(client, battle_id, CSM, headers=KEY), 422, "idempotency-key-reused")

    assert problem["version"] == 2
    assert head_version(client, battle_id) == 2


def test_a_repeat_while_the_first_is_in_flight_is_a_409(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    waiting = _waiting(client, battle_id, WALL, {**KEY, "Prefer": "wait=5"})
    _appended(client, battle_id, 2)  # the first request is now waiting for its outcome

    in_flight = send(client, battle_id, WALL, headers=KEY)

    assert_problem(in_flight, 409, "idempotency-key-in-flight")
    assert in_flight.headers["Retry-After"] == "1"
    fold(redis_store, battle_id)
    first = waiting.result()
    same_answer(first, send(client, battle_id, WALL, headers=KEY))
    assert head_version(client, battle_id) == 2


def test_a_key_whose_request_never_answered_replays_as_accepted(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)  # as if an API process died between the append and its answer
    entry = NewEntry(
        type="add_fortification",
        data={"id": "W1", "kind": "wall"},
        schema_version=1,
        actor="gm",
        idempotency_key=KEY["Idempotency-Key"],
        recorded_at="2026-03-01T12:00:00.000Z",
        dice={},
    )
    redis_store.append(appending(battle_id, entry, fingerprint=fingerprint(WALL), lease_s=0))

    replayed = send(client, battle_id, WALL, headers=KEY)

    assert replayed.status_code == 202
    assert replayed.get_json()["version"] == 2
    assert replayed.headers["Location"] == f"/battles/{battle_id}/events/2"
    assert head_version(client, battle_id) == 2


def test_a_repeat_wins_over_a_stale_if_match(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    etag = client.get(f"/battles/{battle_id}").headers["ETag"]
    first = send(client, battle_id, WALL, headers={**KEY, "If-Match": etag})

    again = send(client, battle_id, WALL, headers={**KEY, "If-Match": etag})

    same_answer(first, again)


def test_keys_belong_to_one_battle(client: FlaskClient) -> None:
    one, other = create_battle(client), create_battle(client)
    send(client, one, WALL, headers=KEY)

    assert send(client, other, CSM, headers=KEY).status_code == 202
    assert head_version(client, other) == 2


def test_a_refused_request_keeps_no_record_for_its_key(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    assert_problem(send(client, battle_id, {**WALL, "kind": "moat"}, headers=KEY), 422, "validation")

    assert send(client, battle_id, WALL, headers=KEY).status_code == 202
    assert head_version(client, battle_id) == 2


def test_without_a_key_every_post_appends(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    send(client, battle_id, WALL)
    send(client, battle_id, WALL)
    assert head_version(client, battle_id) == 3


@pytest.mark.parametrize("key", ["", "k" * 256])
def test_an_empty_or_overlong_key_is_a_422(client: FlaskClient, key: str) -> None:
    battle_id = create_battle(client)
    problem = assert_problem(
        send(client, battle_id, WALL, headers={"Idempotency-Key": key}), 422, "validation"
    )
    assert "Idempotency-Key" in problem["errors"]
    assert head_version(client, battle_id) == 1


class _Waiting:
    def __init__(self, thread: threading.Thread, box: list[TestResponse]) -> None:
        self.thread, self.box = thread, box

    def result(self) -> TestResponse:
        self.thread.join(timeout=30)
        assert self.box, "the waiting request never answered"
        return self.box[0]


def _waiting(
    client: FlaskClient, battle_id: str, command: dict[str, Any], headers: dict[str, str]
) -> _Waiting:
    """Send from another thread (its own client, same GM token); the answer comes from `.result()`."""
    box: list[TestResponse] = []
    own = client.application.test_client()
    auth = {"Authorization": f"Bearer {client.gm_tokens[battle_id]}"}  # type: ignore[attr-defined]
    thread = threading.Thread(
        target=lambda: box.append(send(own, battle_id, command, headers={**headers, **auth}))
    )
    thread.start()
    return _Waiting(thread, box)


def _appended(client: FlaskClient, battle_id: str, version: int) -> None:
    for _ in _bounded():
        if head_version(client, battle_id) >= version:
            return


def _fold_when_appended(client: FlaskClient, store: Backend, battle_id: str, version: int) -> None:
    _appended(client, battle_id, version)
    fold(store, battle_id)


def _bounded() -> Iterator[int]:
    """Polls with a bound (a stuck request fails the test, it never hangs the suite)."""
    deadline = time.monotonic() + 20
    n = 0
    while time.monotonic() < deadline:
        yield n
        n += 1
        time.sleep(0.01)
    raise AssertionError("gave up waiting")


def test_a_record_of_the_earlier_layout_still_replays_its_entry(
    client: FlaskClient, redis_client: Any
) -> None:
    battle_id = create_battle(client)
    first = send(client, battle_id, WALL, headers=KEY)
    earlier = {"f": hashlib.sha256(canonical_json(WALL).encode()).hexdigest(), "v": 2, "h": "x", "x": 0}
    redis_client.hset(f"siege:{{{battle_id}}}:idem", KEY["Idempotency-Key"], json.dumps(earlier))

    again = send(client, battle_id, WALL, headers=KEY)

    same_answer(first, again)
    assert_problem(send(client, battle_id, CSM, headers=KEY), 422, "idempotency-key-reused")
    assert head_version(client, battle_id) == 2
