"""The authorization matrix (DESIGN §4.9): every endpoint × every kind of credential → the expected status.
No request reads or changes a battle without a token for it; observers only read; a side commands only its
own units; tokens are the GM's business; creating battles takes the service key."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from eventstore.records import TokenRecord
from eventstore.redis_store import RedisEventStore
from service.access.tokens import mint as mint_record
from service.app import create_app
from tests.fixtures.app import GmClient, config_for
from tests.service.helpers import CSM, GOFF, WALL, accepted, bearer, head_version, mint

SERVICE_KEY = "the-service-key"
CREDENTIALS = ["none", "service", "other_battle", "observer", "side_a", "side_b", "gm", "expired", "revoked"]
GATE = {"type": "add_fortification", "id": "G1", "kind": "gate"}
ATTACKER_CLIMBS = {"type": "climb", "stand_id": "csm", "section_id": "W1"}
DEFENDER_ORDERS_GATE = {"type": "give_order", "gate_id": "G1", "order": "charge"}


@dataclass
class Scene:
    """Battle A (the one every request targets) with a wall, a gate and one stand per side; battle B."""

    client: GmClient  # set-up and checks, as the GM
    raw: FlaskClient  # the request under test, with exactly the credential given
    battle: str
    headers: dict[str, dict[str, str]]
    spare_token_id: str


@pytest.fixture
def keyed_app(redis_store: RedisEventStore, redis_client: redis.Redis[Any], redis_url: str) -> Flask:
    return create_app(config_for(redis_url, api_key=SERVICE_KEY), store=redis_store, queue_redis=redis_client)


@pytest.fixture
def scene(keyed_app: Flask, redis_store: RedisEventStore) -> Scene:
    client = GmClient(keyed_app, keyed_app.response_class)
    battle, other = (_created(client) for _ in range(2))
    for command in (WALL, GATE, CSM, GOFF):
        accepted(client, battle, command)
    past = mint_record("side:attacker", expires_in_s=1)
    redis_store.add_token(battle, _expired(past.record))
    revoked = mint(client, battle, "side:attacker")
    assert client.delete(f"/battles/{battle}/tokens/{revoked['id']}").status_code == 204
    secrets = {
        "service": SERVICE_KEY,
        "other_battle": client.gm_tokens[other],
        "observer": mint(client, battle, "observer")["token"],
        "side_a": mint(client, battle, "side:attacker")["token"],
        "side_b": mint(client, battle, "side:defender")["token"],
        "gm": client.gm_tokens[battle],
        "expired": past.secret,
        "revoked": revoked["token"],
    }
    headers = {name: bearer(secret) for name, secret in secrets.items()}
    headers["none"] = {}
    spare = mint(client, battle, "observer")["id"]
    return Scene(client, keyed_app.test_client(), battle, headers, spare)


def _created(client: GmClient) -> str:
    created = client.post("/battles", json={"ruleset": "epic"}, headers=bearer(SERVICE_KEY))
    assert created.status_code == 201, created.get_json()
    battle_id: str = created.get_json()["id"]
    return battle_id


def _expired(record: TokenRecord) -> TokenRecord:
    return dataclasses.replace(record, expires_at="2000-01-01T00:00:00.000Z")


Call = Callable[[Scene, dict[str, str]], Any]
READ = {"none": 401, "service": 401, "other_battle": 401, "expired": 401, "revoked": 401}
OPEN = dict.fromkeys(CREDENTIALS, 200)


def statuses(refused: dict[str, int], **allowed: int) -> dict[str, int]:
    """401 for every credential that is no token of this battle, `refused` for the others unless allowed."""
    return {**dict.fromkeys(CREDENTIALS, refused.get("default", 403)), **READ, **allowed}


def command(body: dict[str, Any]) -> Call:
    return lambda s, h: s.raw.post(f"/battles/{s.battle}/commands", json=body, headers=h)


def get(path: str) -> Call:
    return lambda s, h: s.raw.get(path.format(b=s.battle, t=s.spare_token_id), headers=h)


MATRIX: dict[str, tuple[Call, dict[str, int]]] = {
    "GET /battles/{id}": (get("/battles/{b}"), statuses({}, observer=200, side_a=200, side_b=200, gm=200)),
    "GET /battles/{id}/events": (
        get("/battles/{b}/events"),
        statuses({}, observer=200, side_a=200, side_b=200, gm=200),
    ),
    "GET /battles/{id}/events/{v}": (
        get("/battles/{b}/events/1"),
        statuses({}, observer=200, side_a=200, side_b=200, gm=200),
    ),
    "GET /battles/{id}/state": (
        get("/battles/{b}/state"),
        statuses({}, observer=200, side_a=200, side_b=200, gm=200),
    ),
    "POST commands: an attacker's stand climbs": (
        command(ATTACKER_CLIMBS),
        statuses({}, side_a=202, gm=202),
    ),
    "POST commands: the defender's gate gets an order": (
        command(DEFENDER_ORDERS_GATE),
        statuses({}, side_b=202, gm=202),
    ),
    "POST commands: a fortification (referee's setup)": (
        command({**WALL, "id": "W2"}),
        statuses({}, gm=202),
    ),
    "POST commands: a side places its own stand": (
        command({**CSM, "id": "csm2"}),
        statuses({}, side_a=202, gm=202),
    ),
    "POST commands: advance_phase": (command({"type": "advance_phase"}), statuses({}, gm=202)),
    "POST commands: conclude": (command({"type": "conclude"}), statuses({}, gm=202)),
    "POST /battles/{id}/tokens": (
        lambda s, h: s.raw.post(f"/battles/{s.battle}/tokens", json={"role": "observer"}, headers=h),
        statuses({}, gm=201),
    ),
    "GET /battles/{id}/tokens": (get("/battles/{b}/tokens"), statuses({}, gm=200)),
    "GET /battles/{id}/tokens/{token}": (get("/battles/{b}/tokens/{t}"), statuses({}, gm=200)),
    "DELETE /battles/{id}/tokens/{token}": (
        lambda s, h: s.raw.delete(f"/battles/{s.battle}/tokens/{s.spare_token_id}", headers=h),
        statuses({}, gm=204),
    ),
    "POST /battles": (
        lambda s, h: s.raw.post("/battles", json={"ruleset": "epic"}, headers=h),
        {**dict.fromkeys(CREDENTIALS, 401), "service": 201},
    ),
    "GET /rulesets": (get("/rulesets"), OPEN),
}
CASES = [
    pytest.param(call, credential, expected[credential], id=f"{name} as {credential}")
    for name, (call, expected) in MATRIX.items()
    for credential in CREDENTIALS
]


@pytest.mark.parametrize("call, credential, expected", CASES)
def test_each_endpoint_answers_each_credential_as_the_matrix_says(
    scene: Scene, call: Call, credential: str, expected: int
) -> None:
    before = head_version(scene.client, scene.battle)

    answered = call(scene, scene.headers[credential])

    assert answered.status_code == expected, answered.get_json()
    if expected >= 400:
        assert answered.mimetype == "application/problem+json"
        assert head_version(scene.client, scene.battle) == before  # a refusal appends nothing
