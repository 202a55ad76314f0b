"""GET /battles/{id}/stream and POST .../stream-tickets through the app on the real store: every outcome
once, in order, as GET .../events/{v} serves it; resumable; tickets single use (issue 10)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask

from eventstore.redis_store import RedisEventStore
from service.app import create_app
from service.deps import EXTENSION, Services
from service.streams.subscriptions import BACKLOG
from tests.fixtures.app import GmClient, config_for
from tests.service.helpers import accepted, assert_problem, bearer, create_battle, fold, mint, outcome, send
from tests.sse import Event, EventReader, lines_of
from tests.workers.logs import append

PHASE = {"type": "advance_phase"}
CONCLUDE = {"type": "conclude"}


@pytest.fixture
def stream_app(redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str) -> Flask:
    config = config_for(redis_url, stream_heartbeat_s=0.05, stream_ticket_ttl_s=1, max_streams=3)
    app = create_app(config, store=redis_store, queue_redis=redis_client)
    app.testing = True
    return app


@pytest.fixture
def client(stream_app: Flask) -> GmClient:
    return GmClient(stream_app, stream_app.response_class, use_cookies=False)


def hub_of(app: Flask) -> Any:
    services: Services = app.extensions[EXTENSION]
    return services.hub


@contextlib.contextmanager
def stream(client: GmClient, battle_id: str, query: str = "", **kwargs: Any) -> Iterator[EventReader]:
    response = client.get(f"/battles/{battle_id}/stream{query}", buffered=False, **kwargs)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "text/event-stream"
    try:
        yield EventReader(lines_of(response.response))
    finally:
        response.close()  # what the server does when the client goes away


def versions(events: list[Event]) -> list[int]:
    return [int(e.id or 0) for e in events]


def battle_with(client: GmClient, store: RedisEventStore, commands: int) -> str:
    battle_id = create_battle(client)
    for _ in range(commands):
        accepted(client, battle_id, PHASE)
    fold(store, battle_id)
    return battle_id


def test_a_stream_opens_with_the_retry_hint_and_sends_outcomes_as_events_serves_them(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = battle_with(client, redis_store, commands=2)

    with stream(client, battle_id, "?after=0") as events:
        hint = events.next()
        sent = events.outcomes(3)

    assert hint is not None and hint.retry == 2000
    assert versions(sent) == [1, 2, 3]
    assert [e.json() for e in sent] == [outcome(client, battle_id, v) for v in (1, 2, 3)]


def test_without_a_resume_point_the_stream_starts_after_the_projected_head(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = battle_with(client, redis_store, commands=3)

    with stream(client, battle_id) as events:
        events.next()  # the retry hint, sent once the stream's start is fixed
        accepted(client, battle_id, PHASE)
        fold(redis_store, battle_id)
        (first,) = events.outcomes(1)

    assert first.id == "5" and first.json() == outcome(client, battle_id, 5)


def test_live_outcomes_follow_the_folded_ones_in_order(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = battle_with(client, redis_store, commands=2)

    with stream(client, battle_id, "?after=1") as events:
        for _ in range(3):
            accepted(client, battle_id, PHASE)
            fold(redis_store, battle_id)
        sent = events.outcomes(5)

    assert versions(sent) == [2, 3, 4, 5, 6]


def test_resuming_after_a_disconnect_loses_and_duplicates_nothing(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = battle_with(client, redis_store, commands=1)
    seen: list[Event] = []
    with stream(client, battle_id, "?after=0") as events:
        seen += events.outcomes(2)
        accepted(client, battle_id, PHASE)
        fold(redis_store, battle_id)
        seen += events.outcomes(1)
    for _ in range(3):  # while nobody listens
        accepted(client, battle_id, PHASE)
    fold(redis_store, battle_id)

    with stream(client, battle_id, "?after=0", headers={"Last-Event-ID": seen[-1].id or ""}) as events:
        seen += events.outcomes(2)  # Last-Event-ID wins over the URL's after, as an EventSource reuses it
    with stream(client, battle_id, f"?after={seen[-1].id}") as events:
        seen += events.outcomes(1)
        accepted(client, battle_id, PHASE)
        fold(redis_store, battle_id)
        seen += events.outcomes(1)

    assert versions(seen) == list(range(1, 8))
    assert [e.json() for e in seen] == [outcome(client, battle_id, v) for v in range(1, 8)]


def test_a_stream_that_falls_behind_reads_the_store_and_loses_nothing(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = battle_with(client, redis_store, commands=0)
    many = BACKLOG + 100  # more than a subscription holds for a reader that reads nothing

    with stream(client, battle_id) as events:
        events.next()  # subscribed; nothing is read from here on while the outcomes land
        append(redis_store, battle_id, many)
        fold(redis_store, battle_id)
        sent = events.outcomes(many)

    assert versions(sent) == list(range(2, many + 2))


def test_an_idle_stream_sends_heartbeats(client: GmClient, redis_store: RedisEventStore) -> None:
    battle_id = battle_with(client, redis_store, commands=0)

    with stream(client, battle_id) as events:
        beat = events.until(lambda frame: bool(frame.comments))

    assert beat.comments == ["keep-alive"] and beat.event is None


@pytest.mark.parametrize(
    ("query", "headers"),
    [("?lang=fr", {}), ("", {"Accept-Language": "fr"}), ("?lang=fr", {"Accept-Language": "en"})],
)
def test_summaries_are_told_in_the_language_asked(
    client: GmClient, redis_store: RedisEventStore, query: str, headers: dict[str, str]
) -> None:
    battle_id = battle_with(client, redis_store, commands=1)
    french = client.get(f"/battles/{battle_id}/events/2", headers={"Accept-Language": "fr"}).get_json()

    response = client.get(
        f"/battles/{battle_id}/stream{query}{'&' if query else '?'}after=1", buffered=False, headers=headers
    )
    try:
        (sent,) = EventReader(lines_of(response.response)).outcomes(1)
    finally:
        response.close()

    assert response.headers["Content-Language"] == "fr"
    assert sent.json() == french["outcome"]
    assert sent.json()["summary"] != outcome(client, battle_id, 2)["summary"]


def test_the_stream_ends_after_the_outcome_of_an_applied_conclude(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = battle_with(client, redis_store, commands=1)
    with stream(client, battle_id) as events:
        events.next()
        accepted(client, battle_id, CONCLUDE)
        accepted(client, battle_id, PHASE)  # rejected (battle_concluded): never streamed
        fold(redis_store, battle_id)
        (concluded,) = events.outcomes(1)
        end = events.until(lambda frame: frame.event is not None)
        after = events.next()

    assert concluded.json()["type"] == "conclude" and concluded.id == "3"
    assert end.event == "end" and end.json() == {"version": 3, "reason": "concluded"}
    assert after is None


@pytest.mark.parametrize("query", ["", "?after=3", "?after=4", "?after=1"])
def test_a_concluded_battle_sends_what_is_left_then_the_end(
    client: GmClient, redis_store: RedisEventStore, query: str
) -> None:
    battle_id = battle_with(client, redis_store, commands=1)
    accepted(client, battle_id, CONCLUDE)
    accepted(client, battle_id, PHASE)
    fold(redis_store, battle_id)

    with stream(client, battle_id, query) as events:
        frames = [events.next() for _ in range(5)]

    sent = [f for f in frames if f is not None and f.event]
    if query == "?after=1":
        assert [(f.event, f.id) for f in sent] == [("outcome", "2"), ("outcome", "3"), ("end", None)]
    else:
        assert [f.event for f in sent] == ["end"] and sent[0].json()["version"] == 3
    assert frames[-1] is None


def test_a_stream_releases_its_subscription_when_the_client_goes(
    client: GmClient, redis_store: RedisEventStore, stream_app: Flask
) -> None:
    battle_id = battle_with(client, redis_store, commands=0)
    with stream(client, battle_id) as events:
        events.next()
        assert hub_of(stream_app).open_streams == 1

    assert hub_of(stream_app).open_streams == 0


def test_past_the_cap_a_stream_is_a_503_with_retry_after(
    client: GmClient, redis_store: RedisEventStore, stream_app: Flask
) -> None:
    battle_id = battle_with(client, redis_store, commands=0)
    with stream(client, battle_id), stream(client, battle_id), stream(client, battle_id):
        refused = client.get(f"/battles/{battle_id}/stream")
        assert_problem(refused, 503, "too-many-streams")
        assert refused.headers["Retry-After"] == "5"
    with stream(client, battle_id) as events:  # a closed stream gives its place back
        assert events.next() is not None


@pytest.fixture
def shared_client(redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str) -> GmClient:
    """A process of 6 streams, of which one battle may hold 4 and one token 2."""
    config = config_for(redis_url, max_streams=6, max_streams_per_battle=4, max_streams_per_token=2)
    app = create_app(config, store=redis_store, queue_redis=redis_client)
    return GmClient(app, app.response_class, use_cookies=False)


def test_one_token_holding_its_share_of_streams_leaves_the_rest_to_others(
    shared_client: GmClient, redis_store: RedisEventStore
) -> None:
    client = shared_client
    battle_a, battle_b = (battle_with(client, redis_store, commands=0) for _ in range(2))
    observer = bearer(mint(client, battle_a, "observer")["token"])
    with stream(client, battle_a, headers=observer), stream(client, battle_a, headers=observer):
        refused = client.get(f"/battles/{battle_a}/stream", headers=observer)
        problem = assert_problem(refused, 429, "token-streams-full")
        assert refused.headers["Retry-After"] == "5" and "SIEGE_MAX_STREAMS_PER_TOKEN" in problem["detail"]
        ticket = ticket_of(client, battle_a, headers=observer)  # a ticket counts as the token it came from
        assert_problem(
            tokenless(client, f"/battles/{battle_a}/stream?ticket={ticket}"), 429, "token-streams-full"
        )
        with stream(client, battle_b) as other, stream(client, battle_a) as gm:  # the others' streams open
            assert other.next() is not None and gm.next() is not None


def test_one_battle_holding_its_share_of_streams_leaves_the_rest_to_other_battles(
    shared_client: GmClient, redis_store: RedisEventStore
) -> None:
    client = shared_client
    battle_a, battle_b = (battle_with(client, redis_store, commands=0) for _ in range(2))
    tokens = [bearer(mint(client, battle_a, "observer")["token"]) for _ in range(2)]
    with contextlib.ExitStack() as held:
        for token in tokens:
            held.enter_context(stream(client, battle_a, headers=token))
            held.enter_context(stream(client, battle_a, headers=token))
        refused = client.get(f"/battles/{battle_a}/stream")
        assert "SIEGE_MAX_STREAMS_PER_BATTLE" in assert_problem(refused, 429, "battle-streams-full")["detail"]
        with stream(client, battle_b) as other:
            assert other.next() is not None


# --- tickets ---------------------------------------------------------------------------------------


def ticket_of(client: GmClient, battle_id: str, **kwargs: Any) -> str:
    minted = client.post(f"/battles/{battle_id}/stream-tickets", **kwargs)
    assert minted.status_code == 201, minted.get_json()
    body: dict[str, Any] = minted.get_json()
    assert set(body) == {"ticket", "expires_in"} and 0 < body["expires_in"] <= 60
    assert minted.headers["Cache-Control"] == "no-store"
    return str(body["ticket"])


def tokenless(client: GmClient, path: str) -> Any:
    return client.get(path, headers={"Authorization": ""}, buffered=False)


def test_a_ticket_of_any_read_token_opens_one_stream(client: GmClient, redis_store: RedisEventStore) -> None:
    battle_id = battle_with(client, redis_store, commands=1)
    observer = mint(client, battle_id, "observer")["token"]
    ticket = ticket_of(client, battle_id, headers=bearer(observer))

    opened = tokenless(client, f"/battles/{battle_id}/stream?after=0&ticket={ticket}")
    try:
        (first,) = EventReader(lines_of(opened.response)).outcomes(1)
    finally:
        opened.close()
    again = tokenless(client, f"/battles/{battle_id}/stream?ticket={ticket}")

    assert opened.status_code == 200 and first.id == "1"
    body = assert_problem(again, 401, "unauthorized")
    assert "used" in body["detail"]


def test_an_expired_ticket_is_a_401(client: GmClient, redis_store: RedisEventStore) -> None:
    battle_id = battle_with(client, redis_store, commands=0)
    ticket = ticket_of(client, battle_id)

    time.sleep(1.5)  # the test app's tickets live 1 s

    assert_problem(tokenless(client, f"/battles/{battle_id}/stream?ticket={ticket}"), 401, "unauthorized")


def test_a_ticket_opens_no_other_battles_stream(client: GmClient, redis_store: RedisEventStore) -> None:
    first, other = battle_with(client, redis_store, 0), battle_with(client, redis_store, 0)
    ticket = ticket_of(client, first)

    assert_problem(tokenless(client, f"/battles/{other}/stream?ticket={ticket}"), 401, "unauthorized")
    own = tokenless(client, f"/battles/{first}/stream?ticket={ticket}")  # still its own battle's
    own.close()
    assert own.status_code == 200


def test_a_ticket_of_a_revoked_token_opens_nothing(client: GmClient, redis_store: RedisEventStore) -> None:
    battle_id = battle_with(client, redis_store, commands=0)
    side = mint(client, battle_id, "side:attacker")
    ticket = ticket_of(client, battle_id, headers=bearer(side["token"]))
    assert client.delete(f"/battles/{battle_id}/tokens/{side['id']}").status_code == 204

    assert_problem(tokenless(client, f"/battles/{battle_id}/stream?ticket={ticket}"), 401, "unauthorized")


def test_a_stream_or_a_ticket_needs_a_token_of_the_battle(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = battle_with(client, redis_store, commands=0)

    assert_problem(tokenless(client, f"/battles/{battle_id}/stream"), 401, "unauthorized")
    assert_problem(tokenless(client, f"/battles/{battle_id}/stream?ticket=made-up"), 401, "unauthorized")
    refused = client.post(f"/battles/{battle_id}/stream-tickets", headers=bearer("made-up"))
    assert_problem(refused, 401, "unauthorized")


def test_an_unknown_battle_is_a_404(client: GmClient) -> None:
    assert_problem(tokenless(client, "/battles/nope/stream?ticket=made-up"), 404, "battle-not-found")
    assert_problem(client.get("/battles/nope/stream", headers=bearer("x")), 404, "battle-not-found")
    assert_problem(client.post("/battles/nope/stream-tickets", headers=bearer("x")), 404, "battle-not-found")


@pytest.mark.parametrize(
    ("query", "headers"),
    [("?after=-1", {}), ("?after=x", {}), ("?lang=de", {}), ("?since=3", {}), ("", {"Last-Event-ID": "v3"})],
)
def test_a_resume_point_or_language_that_does_not_fit_is_a_422(
    client: GmClient, redis_store: RedisEventStore, query: str, headers: dict[str, str]
) -> None:
    battle_id = battle_with(client, redis_store, commands=0)

    assert_problem(client.get(f"/battles/{battle_id}/stream{query}", headers=headers), 422, "validation")


UNSAFE = (str(2**64 - 1), str(2**53))  # past any version, past what a JSON client reads back exactly


@pytest.mark.parametrize(
    ("query", "headers"),
    [
        *((f"?after={cursor}", {}) for cursor in UNSAFE),
        *(("", {"Last-Event-ID": cursor}) for cursor in UNSAFE),
        ("?after=1", {"Last-Event-ID": str(2**64 - 1)}),
    ],
)
def test_a_resume_point_beyond_the_safe_integers_is_a_422_before_the_stream_opens(
    client: GmClient, redis_store: RedisEventStore, query: str, headers: dict[str, str]
) -> None:
    """Issue 22: `after=2^64-1` answered 200, then the store refused the cursor and cut the body."""
    battle_id = battle_with(client, redis_store, commands=1)

    refused = client.get(f"/battles/{battle_id}/stream{query}", headers=headers, buffered=False)
    try:
        assert refused.status_code == 422, "a stream was opened"
        problem = assert_problem(refused, 422, "validation")
    finally:
        refused.close()

    assert set(problem["errors"]) <= {"after", "Last-Event-ID"}
    assert hub_of(client.application).open_streams == 0


def test_the_largest_safe_resume_point_opens_a_stream_that_waits(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = battle_with(client, redis_store, commands=1)

    with stream(client, battle_id, f"?after={2**53 - 1}") as events:
        hint, idle = events.next(), events.next()

    assert hint is not None and hint.retry == 2000
    assert idle is not None and idle.comments == ["keep-alive"]  # nothing is after it


def test_a_side_token_may_stream_and_mint_a_ticket(client: GmClient, redis_store: RedisEventStore) -> None:
    battle_id = battle_with(client, redis_store, commands=0)
    side = mint(client, battle_id, "side:defender")["token"]

    assert ticket_of(client, battle_id, headers=bearer(side))
    with stream(client, battle_id, headers=bearer(side)) as events:
        assert events.next() is not None
    assert send(client, battle_id, PHASE, headers=bearer(side)).status_code == 403  # still only a side


@contextlib.contextmanager
def stream_of(client: GmClient, battle_id: str, token: str, how: str) -> Iterator[EventReader]:
    """A stream opened with `token` itself (`bearer`) or with a ticket it minted (`ticket`)."""
    if how == "bearer":
        with stream(client, battle_id, headers=bearer(token)) as events:
            yield events
        return
    ticket = ticket_of(client, battle_id, headers=bearer(token))
    with stream(client, battle_id, f"?ticket={ticket}", headers={"Authorization": ""}) as events:
        yield events


def lapsed_end(events: EventReader) -> Event:
    """The end event, past heartbeats and outcomes; the stream must close after it."""
    end = events.until(lambda frame: frame.event == "end")
    assert events.next() is None, "the stream closes after its end"
    return end


@pytest.mark.parametrize("how", ["bearer", "ticket"])
def test_revoking_the_token_ends_its_open_stream(
    client: GmClient, redis_store: RedisEventStore, how: str
) -> None:
    battle_id = battle_with(client, redis_store, commands=1)
    observer = mint(client, battle_id, "observer")
    with stream(client, battle_id) as gms, stream_of(client, battle_id, observer["token"], how) as events:
        assert gms.next() is not None and events.next() is not None  # the retry hints: both are live
        assert client.delete(f"/battles/{battle_id}/tokens/{observer['id']}").status_code == 204
        end = lapsed_end(events)
        version = accepted(client, battle_id, PHASE)
        fold(redis_store, battle_id)
        (still,) = gms.outcomes(1)  # the GM's own stream is not the revoked token's
    again = client.get(
        f"/battles/{battle_id}/stream", headers={**bearer(observer["token"]), "Last-Event-ID": "2"}
    )

    assert end.id is None and end.json() == {"reason": "token_revoked"}
    assert still.id == str(version)
    body = assert_problem(again, 401, "unauthorized")
    assert "revoked" in body["detail"]


@pytest.mark.parametrize("how", ["bearer", "ticket"])
def test_an_expiring_token_ends_its_open_stream(
    client: GmClient, redis_store: RedisEventStore, how: str
) -> None:
    battle_id = battle_with(client, redis_store, commands=0)
    observer = mint(client, battle_id, "observer", expires_in=1)

    with stream_of(client, battle_id, observer["token"], how) as events:
        end = lapsed_end(events)  # heartbeats until the second is over

    assert end.id is None and end.json() == {"reason": "token_expired"}
    assert_problem(
        client.get(f"/battles/{battle_id}/stream", headers=bearer(observer["token"])), 401, "unauthorized"
    )
