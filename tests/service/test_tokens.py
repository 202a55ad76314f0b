"""Tokens (DESIGN §4.9, §5): the GM token comes once with the battle; the GM mints scoped tokens with an
optional expiry, lists and revokes them; tokens are random and stored only as SHA-256."""

from __future__ import annotations

import hashlib
import time
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from eventstore import keys
from tests.service.helpers import WALL, accepted, assert_problem, bearer, create_battle, mint


def test_battle_creation_hands_out_a_working_gm_token_once(client: FlaskClient) -> None:
    created = client.post("/battles", json={"ruleset": "epic"}).get_json()
    gm = bearer(created["gm_token"])

    assert len(created["gm_token"]) >= 43  # 256 random bits, URL-safe base64
    assert client.get(f"/battles/{created['id']}", headers=gm).status_code == 200
    summary = client.get(f"/battles/{created['id']}", headers=gm).get_json()
    assert created["gm_token"] not in str(summary)


def test_a_minted_token_answers_201_with_its_location_and_works_at_once(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    minted = client.post(f"/battles/{battle_id}/tokens", json={"role": "side:attacker", "expires_in": 3600})

    assert minted.status_code == 201
    body = minted.get_json()
    assert minted.headers["Location"] == f"/battles/{battle_id}/tokens/{body['id']}"
    assert set(body) == {"id", "token", "role", "expires_at", "created_at", "revoked", "active"}
    assert (body["role"], body["revoked"], body["active"]) == ("side:attacker", False, True)
    assert body["expires_at"] > body["created_at"]
    assert client.get(f"/battles/{battle_id}/state", headers=bearer(body["token"])).status_code == 200


def test_tokens_are_stored_only_as_their_sha256(client: FlaskClient, redis_client: redis.Redis[Any]) -> None:
    created = client.post("/battles", json={"ruleset": "epic"}).get_json()
    side = mint(client, created["id"], "side:defender")["token"]

    stored = redis_client.hgetall(keys.tokens(created["id"]))

    for secret in (created["gm_token"], side):
        assert hashlib.sha256(secret.encode()).hexdigest().encode() in stored
    everything = _every_byte(redis_client)
    assert created["gm_token"].encode() not in everything and side.encode() not in everything


def _every_byte(client: redis.Redis[Any]) -> bytes:
    """Every key and value on the server, read by type."""
    found: list[bytes] = []
    for key in client.keys("*"):
        kind = client.type(key)  # type: ignore[no-untyped-call]  # types-redis leaves Redis.type unannotated
        if kind == b"string":
            found.append(client.get(key) or b"")
        elif kind == b"hash":
            found += [b for pair in client.hgetall(key).items() for b in pair]
        elif kind == b"stream":
            found += [repr(row).encode() for row in client.xrange(key)]
        elif kind in (b"set", b"zset", b"list"):
            found += [repr(client.sort(key, alpha=True)).encode()]
        found.append(key)
    return b"\n".join(found)


def test_every_token_is_new_random(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    minted = [mint(client, battle_id, "observer") for _ in range(5)]
    assert len({m["token"] for m in minted}) == len({m["id"] for m in minted}) == 5


def test_the_gm_lists_tokens_without_their_secrets(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    observer = mint(client, battle_id, "observer")

    listed = client.get(f"/battles/{battle_id}/tokens").get_json()

    assert [t["role"] for t in listed] == ["gm", "observer"]
    assert all("token" not in t and "digest" not in t for t in listed)
    assert client.get(f"/battles/{battle_id}/tokens/{observer['id']}").get_json() == listed[1]


def test_a_revoked_token_stops_working_at_once_and_stays_listed(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    side = mint(client, battle_id, "side:attacker")

    assert client.delete(f"/battles/{battle_id}/tokens/{side['id']}").status_code == 204

    refused = client.get(f"/battles/{battle_id}", headers=bearer(side["token"]))
    assert "revoked" in assert_problem(refused, 401, "unauthorized")["detail"]
    listed = client.get(f"/battles/{battle_id}/tokens/{side['id']}").get_json()
    assert (listed["revoked"], listed["active"]) == (True, False)
    assert client.delete(f"/battles/{battle_id}/tokens/{side['id']}").status_code == 204  # idempotent


def test_an_unknown_token_id_is_a_404(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    assert_problem(client.delete(f"/battles/{battle_id}/tokens/tok_nope"), 404, "token-not-found")
    assert_problem(client.get(f"/battles/{battle_id}/tokens/tok_nope"), 404, "token-not-found")


def test_a_token_stops_working_when_it_expires(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    short = bearer(mint(client, battle_id, "observer", expires_in=1)["token"])
    deadline = time.monotonic() + 10  # a bound on the wait, not a measurement

    while client.get(f"/battles/{battle_id}", headers=short).status_code == 200:
        assert time.monotonic() < deadline, "the token never expired"
        time.sleep(0.1)

    refused = client.get(f"/battles/{battle_id}", headers=short)
    assert "expired" in assert_problem(refused, 401, "unauthorized")["detail"]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"role": "king"}, "role"),
        ({"role": "side:"}, "role"),
        ({"role": "side:red team"}, "role"),
        ({"role": "side:" + "x" * 65}, "role"),
        ({}, "role"),
        ({"role": "observer", "expires_in": 0}, "expires_in"),
        ({"role": "observer", "expires_in": 1.5}, "expires_in"),
        ({"role": "observer", "expires_in": "60"}, "expires_in"),
        ({"role": "observer", "label": "x"}, "label"),
    ],
)
def test_a_bad_mint_request_is_a_422_and_mints_nothing(
    client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    battle_id = create_battle(client)

    problem = assert_problem(client.post(f"/battles/{battle_id}/tokens", json=body), 422, "validation")

    assert field in problem["errors"]
    assert len(client.get(f"/battles/{battle_id}/tokens").get_json()) == 1


def test_log_entries_record_which_token_sent_them(client: FlaskClient) -> None:
    created = client.post("/battles", json={"ruleset": "epic"}).get_json()
    gm_id = client.get(f"/battles/{created['id']}/tokens").get_json()[0]["id"]

    version = accepted(client, created["id"], WALL)

    entries = [client.get(f"/battles/{created['id']}/events/{v}").get_json() for v in (1, version)]
    assert entries[0]["actor"] == "anonymous"  # no service key is configured in this app
    assert entries[1]["actor"] == f"gm/{gm_id}"


@pytest.mark.parametrize(
    "ruleset, role",
    [
        ("epic", "side:nobody"),
        ("epic", "side:Defender"),
        ("epic", "side:attacker\n"),
        ("epic", "side:att\x00acker"),
        ("pathfinder", "side:Blue"),
        ("pathfinder", "side:red\tteam"),
        ("pathfinder", "side:" + "x" * 65),
    ],
)
def test_a_side_token_names_a_side_of_the_ruleset_or_is_a_422(
    client: FlaskClient, ruleset: str, role: str
) -> None:
    battle_id = create_battle(client, ruleset=ruleset)

    problem = assert_problem(
        client.post(f"/battles/{battle_id}/tokens", json={"role": role}), 422, "validation"
    )

    assert "role" in problem["errors"]
    assert [t["role"] for t in client.get(f"/battles/{battle_id}/tokens").get_json()] == ["gm"]


@pytest.mark.parametrize(
    "ruleset, name", [("epic", "attacker"), ("epic", "defender"), ("pathfinder", "blue-2")]
)
def test_a_side_of_the_ruleset_is_minted(client: FlaskClient, ruleset: str, name: str) -> None:
    battle_id = create_battle(client, ruleset=ruleset)

    assert mint(client, battle_id, f"side:{name}")["role"] == f"side:{name}"


@pytest.fixture
def capped(redis_store: Any, redis_client: redis.Redis[Any], redis_url: str) -> FlaskClient:
    """A service whose battles may hold 3 live tokens (the GM's from the creation counts)."""
    from service.app import create_app
    from tests.fixtures.app import GmClient, config_for

    app = create_app(config_for(redis_url, max_tokens=3), store=redis_store, queue_redis=redis_client)
    return GmClient(app, app.response_class, use_cookies=False)


def test_a_battle_holds_at_most_its_cap_of_live_tokens(capped: FlaskClient) -> None:
    battle_id = create_battle(capped)
    first = mint(capped, battle_id, "gm")
    short = mint(capped, battle_id, "observer", expires_in=1)

    refused = capped.post(f"/battles/{battle_id}/tokens", json={"role": "gm"})

    problem = assert_problem(refused, 409, "too-many-tokens")
    assert problem["live"] == 3 and "SIEGE_MAX_TOKENS" in problem["detail"]
    assert len(capped.get(f"/battles/{battle_id}/tokens").get_json()) == 3  # nothing was kept
    assert capped.delete(f"/battles/{battle_id}/tokens/{first['id']}").status_code == 204
    mint(capped, battle_id, "gm")  # a revoked token frees its place
    assert_problem(capped.post(f"/battles/{battle_id}/tokens", json={"role": "gm"}), 409, "too-many-tokens")
    deadline = time.monotonic() + 10  # a bound on the wait, not a measurement
    while capped.get(f"/battles/{battle_id}", headers=bearer(short["token"])).status_code == 200:
        assert time.monotonic() < deadline, "the token never expired"
        time.sleep(0.1)
    mint(capped, battle_id, "gm")  # and so does an expired one
