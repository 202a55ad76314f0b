"""CORS for browser plugins (issue 4, flask-cors): configured origins, preflight allowing the headers the API
reads, ETag/Location/Link/Retry-After exposed, on error answers too, and never `*` with credentials."""

from __future__ import annotations

from collections import Counter
from typing import Any

import flask_cors.core
import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from service.app import create_app
from tests.fixtures.app import GmClient, config_for
from tests.fixtures.redis_server import Backend
from tests.service.helpers import create_battle

FOUNDRY = "https://foundry.example:30000"
REQUEST_HEADERS = {
    "authorization",
    "content-type",
    "idempotency-key",
    "if-match",
    "if-none-match",
    "prefer",
    "last-event-id",
}
EXPOSED = {"etag", "location", "link", "retry-after", "www-authenticate", "ratelimit", "ratelimit-policy"}


def app_with(origins: tuple[str, ...], store: Backend, queue: redis.Redis[Any], url: str) -> Flask:
    return create_app(config_for(url, cors_origins=origins), store=store, queue_redis=queue)


@pytest.fixture
def listed(redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str) -> GmClient:
    app = app_with((FOUNDRY,), redis_store, redis_client, redis_url)
    return GmClient(app, app.response_class)


def names(header: str | None) -> set[str]:
    return {name.strip().lower() for name in (header or "").split(",") if name.strip()}


def preflight(client: FlaskClient, path: str, origin: str, method: str = "POST") -> Any:
    wanted = "authorization, content-type, idempotency-key, if-match, if-none-match, prefer, last-event-id"
    return client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": wanted,
        },
    )


def test_a_preflight_from_an_allowed_origin_allows_the_api_headers(listed: GmClient) -> None:
    battle_id = create_battle(listed)

    answer = preflight(listed, f"/battles/{battle_id}/commands", FOUNDRY)

    assert answer.status_code == 200
    assert answer.headers["Access-Control-Allow-Origin"] == FOUNDRY
    assert names(answer.headers["Access-Control-Allow-Headers"]) >= REQUEST_HEADERS
    assert "POST" in answer.headers["Access-Control-Allow-Methods"]
    assert int(answer.headers["Access-Control-Max-Age"]) > 0
    assert "Access-Control-Allow-Credentials" not in answer.headers


def test_an_origin_not_listed_gets_no_cors_headers(listed: GmClient) -> None:
    answer = preflight(listed, "/battles", "https://evil.example")
    assert "Access-Control-Allow-Origin" not in answer.headers
    plain = listed.get("/rulesets", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in plain.headers


def test_answers_expose_the_headers_a_plugin_reads(listed: GmClient) -> None:
    battle_id = create_battle(listed)

    answer = listed.post(
        f"/battles/{battle_id}/commands", json={"type": "advance_phase"}, headers={"Origin": FOUNDRY}
    )

    assert answer.status_code == 202
    assert answer.headers["Access-Control-Allow-Origin"] == FOUNDRY
    assert names(answer.headers["Access-Control-Expose-Headers"]) >= EXPOSED


@pytest.mark.parametrize(
    "request_args, status",
    [
        ({"path": "/battles/nope", "method": "GET"}, 404),
        ({"path": "/battles/{b}", "method": "GET", "auth": "Bearer not-a-token"}, 401),
        ({"path": "/battles/{b}/tokens", "method": "POST", "json": {"role": "king"}}, 422),
        ({"path": "/no/such/path", "method": "GET"}, 404),
        ({"path": "/rulesets", "method": "DELETE"}, 405),
        ({"path": "/battles", "method": "POST", "json": {"ruleset": "chess"}}, 422),
        ({"path": "/battles", "method": "POST", "data": "x", "content_type": "text/plain"}, 415),
    ],
)
def test_error_answers_carry_cors_headers_too(
    listed: GmClient, request_args: dict[str, Any], status: int
) -> None:
    battle_id = create_battle(listed)
    args = {**request_args, "path": request_args["path"].format(b=battle_id)}
    auth = {"Authorization": args.pop("auth")} if "auth" in args else {}

    answer = listed.open(headers={"Origin": FOUNDRY, **auth}, **args)

    assert answer.status_code == status
    assert answer.mimetype == "application/problem+json"
    assert answer.headers["Access-Control-Allow-Origin"] == FOUNDRY
    assert names(answer.headers["Access-Control-Expose-Headers"]) >= EXPOSED


def test_any_origin_is_a_wildcard_without_credentials(client: FlaskClient) -> None:
    answer = preflight(client, "/battles", "https://owlbear.example")

    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in answer.headers
    assert "Access-Control-Allow-Credentials" not in client.get("/rulesets", headers={"Origin": "x"}).headers


def test_cors_can_be_switched_off(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str
) -> None:
    client = app_with((), redis_store, redis_client, redis_url).test_client()
    answer = client.get("/rulesets", headers={"Origin": FOUNDRY})
    assert not [name for name, _ in answer.headers if name.startswith("Access-Control")]


def test_the_preflight_lists_only_the_methods_some_route_takes(listed: GmClient, app: Flask) -> None:
    taken = {method for rule in app.url_map.iter_rules() for method in rule.methods or ()}

    allowed = names(preflight(listed, "/battles", FOUNDRY).headers["Access-Control-Allow-Methods"])

    assert allowed == {method.lower() for method in taken}
    assert "put" not in allowed and "patch" not in allowed


def test_a_browser_can_poll_an_event_with_if_none_match(listed: GmClient) -> None:
    battle_id = create_battle(listed)
    location = listed.post(f"/battles/{battle_id}/commands", json={"type": "advance_phase"}).headers[
        "Location"
    ]
    tag = listed.get(location).headers["ETag"]

    allowed = preflight(listed, location, FOUNDRY, method="GET").headers["Access-Control-Allow-Headers"]
    polled = listed.get(location, headers={"Origin": FOUNDRY, "If-None-Match": tag})

    assert "if-none-match" in names(allowed)
    assert polled.status_code == 304
    assert polled.headers["Access-Control-Allow-Origin"] == FOUNDRY


def counted_cors_headers(monkeypatch: pytest.MonkeyPatch) -> Counter[str | None]:
    """Calls of flask-cors' field maker from service/http/cors.SimpleAnswers, by the request's Origin."""
    calls: Counter[str | None] = Counter()
    real = flask_cors.core.get_cors_headers  # what service/http/cors imports

    def counting(options: Any, headers: Any, method: str) -> Any:
        calls[headers.get("Origin")] += 1
        return real(options, headers, method)

    monkeypatch.setattr("service.http.cors.get_cors_headers", counting)
    return calls


def test_each_origin_keeps_its_own_fields_request_after_request(
    redis_store: RedisEventStore,
    redis_client: redis.Redis[Any],
    redis_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A plain answer's fields are worked out once per Origin (http/cors.SimpleAnswers), then reused."""
    other = "https://owlbear.example"
    client = app_with((FOUNDRY, other), redis_store, redis_client, redis_url).test_client()
    calls = counted_cors_headers(monkeypatch)

    def fields(origin: str | None) -> list[tuple[str, str]]:
        answer = client.get("/rulesets", headers={"Origin": origin} if origin else {})
        return [(name, value) for name, value in answer.headers if name.startswith("Access-Control")]

    origins = (FOUNDRY, other, "https://evil.example", None)
    first = {origin: fields(origin) for origin in origins}
    again = {origin: fields(origin) for origin in origins}

    assert again == first
    assert calls == {FOUNDRY: 1, other: 1, None: 1, "https://evil.example": 2}  # evil: no fields, never kept
    for origin in (FOUNDRY, other):
        assert dict(first[origin])["Access-Control-Allow-Origin"] == origin
        assert names(dict(first[origin])["Access-Control-Expose-Headers"]) >= EXPOSED
        vary = client.get("/rulesets", headers={"Origin": origin}).headers["Vary"]
        assert vary == "Origin"  # two origins listed: a cache must key on it
    assert first["https://evil.example"] == []


def test_an_error_answer_from_an_allowed_origin_carries_the_fields_once(listed: GmClient) -> None:
    """flask-cors stamps error answers as they are made; the memo's hook then leaves them alone."""
    client = listed.application.test_client()
    client.get("/rulesets", headers={"Origin": FOUNDRY})  # the memo holds this Origin's fields

    answer = client.get("/no-such-resource", headers={"Origin": FOUNDRY})

    assert answer.status_code == 404 and answer.mimetype == "application/problem+json"
    assert answer.headers.getlist("Access-Control-Allow-Origin") == [FOUNDRY]
    assert len(answer.headers.getlist("Access-Control-Expose-Headers")) == 1
