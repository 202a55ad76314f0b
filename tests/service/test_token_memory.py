"""Each API process remembers the token records commands came with (service/access/token_cache.py); a token
revoked through another process still stops working at once, because the append re-checks it (DESIGN §4.9)."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from eventstore.config import connect
from eventstore.redis_store import RedisEventStore
from service.app import create_app
from tests.fixtures.app import GmClient, config_for
from tests.service.helpers import assert_problem, bearer, create_battle, head_version, mint, send

ADVANCE = {"type": "advance_phase"}


@pytest.fixture
def other_process(redis_url: str, redis_client: redis.Redis[Any]) -> FlaskClient:
    """A second API process on the same store: its own client, head cache and token memory."""
    app: Flask = create_app(
        config_for(redis_url), store=RedisEventStore(connect(redis_url)), queue_redis=redis_client
    )
    app.testing = True
    return GmClient(app, app.response_class, use_cookies=False)


def test_a_token_revoked_elsewhere_appends_nothing_more_here(
    client: GmClient, other_process: FlaskClient
) -> None:
    battle_id = create_battle(client)
    deputy = mint(client, battle_id, "gm")
    assert send(client, battle_id, ADVANCE, headers=bearer(deputy["token"])).status_code == 202  # remembered
    head = head_version(client, battle_id)

    revoked = other_process.delete(
        f"/battles/{battle_id}/tokens/{deputy['id']}", headers=bearer(client.gm_tokens[battle_id])
    )
    assert revoked.status_code == 204

    refused = send(client, battle_id, ADVANCE, headers=bearer(deputy["token"]))
    assert "revoked" in assert_problem(refused, 401, "unauthorized")["detail"]
    assert head_version(client, battle_id) == head
    assert_problem(client.get(f"/battles/{battle_id}", headers=bearer(deputy["token"])), 401, "unauthorized")


def test_a_revoked_token_cannot_replay_its_idempotency_key_through_a_process_that_remembers_it(
    client: GmClient, other_process: FlaskClient
) -> None:
    battle_id = create_battle(client)
    deputy = mint(client, battle_id, "gm")
    keyed = {**bearer(deputy["token"]), "Idempotency-Key": "once"}
    assert send(client, battle_id, ADVANCE, headers=keyed).status_code == 202
    gm = bearer(client.gm_tokens[battle_id])
    assert other_process.delete(f"/battles/{battle_id}/tokens/{deputy['id']}", headers=gm).status_code == 204

    assert_problem(send(client, battle_id, ADVANCE, headers=keyed), 401, "unauthorized")


def test_a_token_revoked_here_is_forgotten_here_at_once(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    deputy = mint(client, battle_id, "gm")
    assert send(client, battle_id, ADVANCE, headers=bearer(deputy["token"])).status_code == 202

    assert client.delete(f"/battles/{battle_id}/tokens/{deputy['id']}").status_code == 204

    invalid = send(client, battle_id, {"type": "advance_phase", "extra": 1}, headers=bearer(deputy["token"]))
    assert_problem(invalid, 401, "unauthorized")  # refused before its body is judged, as without memory


ASKS = {  # one request of each access level, each made once before the revocation (so remembered if ever)
    "read": ("GET", "/battles/{b}/state", None),
    "stream": ("GET", "/battles/{b}/stream?after=0", None),
    "command (a preview)": ("POST", "/battles/{b}/previews", ADVANCE),
    "command": ("POST", "/battles/{b}/commands", ADVANCE),
    "gm": ("GET", "/battles/{b}/tokens", None),
}


@pytest.mark.parametrize("level", list(ASKS))
def test_a_token_revoked_in_another_process_is_refused_here_at_every_access_level(
    client: GmClient, other_process: FlaskClient, level: str
) -> None:
    battle_id = create_battle(client)
    deputy = mint(client, battle_id, "gm")
    method, path, body = ASKS[level]
    url = path.format(b=battle_id)
    first = client.open(url, method=method, json=body, headers=bearer(deputy["token"]), buffered=False)
    assert first.status_code in (200, 202), first.status_code
    first.close()  # a stream answered 200: its first bytes are enough

    revoked = other_process.delete(
        f"/battles/{battle_id}/tokens/{deputy['id']}", headers=bearer(client.gm_tokens[battle_id])
    )
    assert revoked.status_code == 204

    again = client.open(url, method=method, json=body, headers=bearer(deputy["token"]))
    assert "revoked" in assert_problem(again, 401, "unauthorized")["detail"]
