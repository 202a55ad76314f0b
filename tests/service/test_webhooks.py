"""Webhook registration (issue 10): a GM registers a URL and gets its secret once, lists, deletes and reads
deliveries; URLs that are not http(s), too long, or whose host resolves to a refused address are 422
problems naming why, and register nothing."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from service.app import create_app
from service.http.problems import Problem
from service.webhooks.registration import register as register_webhook
from tests.fixtures.app import GmClient, config_for
from tests.service.helpers import WALL, accepted, assert_problem, bearer, create_battle, fold, mint
from webhooks.guard import parse_allow
from webhooks.settings import WebhookSettings

RECEIVER = "http://127.0.0.1:9/siege"  # never connected to: registration only resolves the host
BOTH = ["siege.outcome.applied", "siege.outcome.rejected"]


@pytest.fixture
def allowing(redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str) -> GmClient:
    """A GM client on an app whose SIEGE_WEBHOOK_ALLOW is 127.0.0.1, as the tests' receivers need."""
    settings = WebhookSettings(allow=parse_allow("127.0.0.1"))
    app: Flask = create_app(
        config_for(redis_url, webhooks=settings), store=redis_store, queue_redis=redis_client
    )
    app.testing = True
    return GmClient(app, app.response_class, use_cookies=False)


def register(client: FlaskClient, battle_id: str, headers: dict[str, str] | None = None, **body: Any) -> Any:
    return client.post(f"/battles/{battle_id}/webhooks", json={"url": RECEIVER, **body}, headers=headers)


def test_a_registered_webhook_answers_201_with_its_secret_once(allowing: GmClient) -> None:
    battle_id = create_battle(allowing)

    created = register(allowing, battle_id)

    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    assert created.headers["Location"] == f"/battles/{battle_id}/webhooks/{body['id']}"
    assert body["secret"].startswith("whsec_") and len(body["secret"]) > 30
    assert (body["url"], body["types"], body["language"]) == (RECEIVER, BOTH, "en")
    assert (body["state"], body["delivered_version"], body["next_retry_at"]) == ("active", 0, None)
    listed = allowing.get(f"/battles/{battle_id}/webhooks").get_json()
    assert [w["id"] for w in listed] == [body["id"]]
    assert "secret" not in listed[0] and body["secret"] not in str(listed)


def test_types_and_language_are_kept_and_delivery_starts_after_the_projected_version(
    allowing: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(allowing)
    accepted(allowing, battle_id, WALL)
    fold(redis_store, battle_id)

    body = register(allowing, battle_id, types=["siege.outcome.rejected"], language="fr").get_json()

    assert (body["types"], body["language"], body["delivered_version"]) == (
        ["siege.outcome.rejected"],
        "fr",
        2,
    )


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("ftp://hooks.example/siege", "Only http and https"),
        ("file:///etc/passwd", "Only http and https"),
        ("hooks.example/siege", "Only http and https"),
        ("https://" + "a" * 2040 + ".example/", "at most 2048"),
        ("http://user:pw@hooks.example/", "credentials"),
        ("http:///siege", "no host"),
        ("https://hooks.example/si\r\nX-Evil: 1", "control characters"),  # once: registered, never sent
        ("https://hooks.example/a b", "spaces"),
        ("https://hooks.example/\x00", "control characters"),
        ("https://hooks.example:0/siege", "port 0"),  # was taken for port 80
    ],
)
def test_a_url_of_the_wrong_form_is_a_422_naming_why(client: GmClient, url: str, why: str) -> None:
    battle_id = create_battle(client)

    refused = assert_problem(register(client, battle_id, url=url), 422, "validation")

    assert why in refused["errors"]["url"][0]
    assert client.get(f"/battles/{battle_id}/webhooks").get_json() == []


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("http://127.0.0.1:8080/hook", "loopback"),
        ("http://localhost:8080/hook", "loopback"),
        ("http://[::1]/hook", "loopback"),
        ("http://[::ffff:127.0.0.1]/hook", "loopback"),
        ("http://[2002:7f00:1::]/x", "loopback"),  # 6to4 carrying 127.0.0.1
        ("http://[2002:a01:203::1]/x", "private"),  # 6to4 carrying 10.1.2.3
        ("http://[2001:0:4136:e378:8000:63bf:f5fe:fffe]/x", "private"),  # Teredo: client 10.1.0.1
        ("http://[2001:0:a9fe:a9fe:8000:63bf:3fff:fdd2]/x", "link-local"),  # Teredo: server 169.254.169.254
        ("http://[64:ff9b::7f00:1]/x", "loopback"),  # NAT64 carrying 127.0.0.1
        ("http://10.1.2.3/hook", "private"),
        ("http://192.168.0.10/hook", "private"),
        ("https://172.16.0.1/hook", "private"),
        ("http://169.254.169.254/latest/meta-data", "link-local"),
        ("http://[fe80::1]/hook", "link-local"),
        ("http://[fec0::1]/hook", "site-local"),  # deprecated (RFC 3879), yet routed inside some networks
        ("http://0.0.0.0/hook", "unspecified"),
        ("http://224.0.0.1/hook", "multicast"),
        ("http://240.0.0.1/hook", "reserved"),
    ],
)
def test_a_host_resolving_to_a_refused_address_is_a_422_naming_it(
    client: GmClient, url: str, kind: str
) -> None:
    battle_id = create_battle(client)

    refused = assert_problem(register(client, battle_id, url=url), 422, "webhook-address-refused")

    assert f"a {kind} address" in refused["errors"]["url"][0]
    assert client.get(f"/battles/{battle_id}/webhooks").get_json() == []


def test_an_ipv6_address_carrying_a_public_ipv4_address_is_judged_by_it(allowing: GmClient) -> None:
    battle_id = create_battle(allowing)

    for url in ("http://[2002:808:808::1]/x", "http://[64:ff9b::808:808]/x"):  # 8.8.8.8 inside
        assert register(allowing, battle_id, url=url).status_code == 201, url


def test_a_host_that_does_not_resolve_in_time_is_a_422_and_registers_nothing(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    settings = WebhookSettings(resolve_timeout_s=0.05)
    answered = threading.Event()

    def stuck(host: str, port: int) -> list[str]:  # a resolver that never answers in time
        answered.wait(5)
        return ["93.184.215.14"]

    with pytest.raises(Problem) as raised:
        register_webhook(redis_store, battle_id, {"url": "https://slow.example/"}, settings, stuck)
    answered.set()

    assert raised.value.status == 422
    assert "slow.example does not resolve (no answer within 0.05 s)" in raised.value.extra["errors"]["url"][0]
    assert redis_store.webhooks(battle_id) == []


def test_the_answers_carrying_a_secret_or_a_token_are_never_cached(allowing: GmClient) -> None:
    created = allowing.post("/battles", json={"ruleset": "epic"})
    battle_id = created.get_json()["id"]
    minted = allowing.post(f"/battles/{battle_id}/tokens", json={"role": "observer"})
    registered = register(allowing, battle_id)

    ticket = allowing.post(f"/battles/{battle_id}/stream-tickets")
    documented = allowing.get("/openapi.json").get_json()["paths"]
    operations = {
        created: documented["/battles"]["post"],
        minted: documented["/battles/{battle_id}/tokens"]["post"],
        registered: documented["/battles/{battle_id}/webhooks"]["post"],
        ticket: documented["/battles/{battle_id}/stream-tickets"]["post"],
    }

    for answer, operation in operations.items():
        assert answer.status_code == 201, answer.get_json()
        assert answer.headers["Cache-Control"] == "no-store"
        header = operation["responses"]["201"]["headers"]["Cache-Control"]  # and clients are told so
        assert header["schema"]["enum"] == ["no-store"]


def test_the_allow_list_lets_only_what_it_names_through(allowing: GmClient) -> None:
    battle_id = create_battle(allowing)

    assert register(allowing, battle_id, url="http://127.0.0.1:8080/").status_code == 201
    assert_problem(register(allowing, battle_id, url="http://127.0.0.2/"), 422, "webhook-address-refused")
    assert_problem(register(allowing, battle_id, url="http://10.0.0.1/"), 422, "webhook-address-refused")


def test_an_allowed_host_name_passes_whatever_it_resolves_to(
    redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str
) -> None:
    settings = WebhookSettings(allow=parse_allow("localhost"))
    app = create_app(config_for(redis_url, webhooks=settings), store=redis_store, queue_redis=redis_client)
    client = GmClient(app, app.response_class, use_cookies=False)
    battle_id = create_battle(client)

    assert register(client, battle_id, url="http://localhost:8080/").status_code == 201
    assert_problem(register(client, battle_id, url="http://127.0.0.1:8080/"), 422, "webhook-address-refused")


@pytest.mark.parametrize(
    "body",
    [
        {"types": ["siege.outcome.exploded"]},
        {"types": []},
        {"types": ["siege.outcome.applied", "siege.outcome.applied"]},
        {"language": "de"},
        {"secret": "whsec_mine"},
    ],
)
def test_unknown_types_languages_and_fields_are_422(allowing: GmClient, body: dict[str, Any]) -> None:
    battle_id = create_battle(allowing)

    assert_problem(register(allowing, battle_id, **body), 422, "validation")
    assert allowing.get(f"/battles/{battle_id}/webhooks").get_json() == []


def test_only_the_gm_manages_webhooks_and_an_unknown_battle_is_a_404(allowing: GmClient) -> None:
    battle_id = create_battle(allowing)
    observer = bearer(mint(allowing, battle_id, "observer")["token"])
    hook = register(allowing, battle_id).get_json()["id"]

    assert_problem(register(allowing, battle_id, headers=observer), 403, "forbidden")
    assert_problem(allowing.get(f"/battles/{battle_id}/webhooks", headers=observer), 403, "forbidden")
    path = f"/battles/{battle_id}/webhooks/{hook}"
    assert_problem(allowing.delete(path, headers=observer), 403, "forbidden")
    assert_problem(allowing.get(f"{path}/deliveries", headers=observer), 403, "forbidden")
    assert_problem(allowing.get("/battles/nope/webhooks"), 404, "battle-not-found")


def test_deleting_a_webhook_answers_204_then_it_is_gone(allowing: GmClient) -> None:
    battle_id = create_battle(allowing)
    hook = register(allowing, battle_id).get_json()["id"]
    path = f"/battles/{battle_id}/webhooks/{hook}"

    assert allowing.delete(path).status_code == 204

    assert allowing.get(f"/battles/{battle_id}/webhooks").get_json() == []
    assert_problem(allowing.delete(path), 404, "webhook-not-found")
    assert_problem(allowing.get(f"{path}/deliveries"), 404, "webhook-not-found")


def test_a_fresh_webhooks_deliveries_show_its_state_and_no_attempt(allowing: GmClient) -> None:
    battle_id = create_battle(allowing)
    hook = register(allowing, battle_id).get_json()["id"]

    shown = allowing.get(f"/battles/{battle_id}/webhooks/{hook}/deliveries?limit=10")

    assert shown.status_code == 200
    assert {k: shown.get_json()[k] for k in ("id", "state", "attempts")} == {
        "id": hook,
        "state": "active",
        "attempts": [],
    }
    assert_problem(
        allowing.get(f"/battles/{battle_id}/webhooks/{hook}/deliveries?limit=0"), 422, "validation"
    )


def test_a_battle_takes_at_most_ten_webhooks(allowing: GmClient) -> None:
    battle_id = create_battle(allowing)
    for _ in range(10):
        assert register(allowing, battle_id).status_code == 201

    assert_problem(register(allowing, battle_id), 422, "validation")
    assert len(allowing.get(f"/battles/{battle_id}/webhooks").get_json()) == 10


def test_a_refused_registration_changes_nothing_in_the_store(
    client: GmClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)

    register(client, battle_id, url="http://127.0.0.1/")

    assert redis_store.webhooks(battle_id) == []
    assert list(redis_store.webhook_battles()) == []
