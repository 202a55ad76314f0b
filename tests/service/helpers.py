"""Small steps the API tests share: create a battle, send a command, read the head, fold like a worker."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.fixtures.redis_server import Backend
from workers.projection import project_battle

PROBLEM_JSON = "application/problem+json"
PROBLEMS = "https://siege.example/problems/"

WALL = {"type": "add_fortification", "id": "W1", "kind": "wall"}
GOFF = {
    "type": "add_stand",
    "id": "goff",
    "stand_type": "infantry",
    "side": "defender",
    "caf": 2,
    "speed_cm": 10,
    "location": {"kind": "on", "section_id": "W1"},
}
CSM = {
    "type": "add_stand",
    "id": "csm",
    "stand_type": "infantry",
    "side": "attacker",
    "caf": 3,
    "speed_cm": 10,
    "location": {"kind": "at_foot", "section_id": "W1"},
}

# EX-EP-01 with the assault dice left to the battle's stream: what the dice and audit tests verify
CLIMB_FIGHT: list[dict[str, Any]] = [
    WALL,
    GOFF,
    CSM,
    {"type": "give_order", "stand_id": "csm", "order": "charge"},
    {"type": "advance_phase"},
    {"type": "climb", "stand_id": "csm", "section_id": "W1"},
    {"type": "advance_phase"},
    {"type": "advance_phase"},
    {"type": "assault", "stand_id": "csm", "section_id": "W1"},  # dice left to the battle's stream
]


def create_battle(client: FlaskClient, **body: Any) -> str:
    created = client.post("/battles", json={"ruleset": "epic", **body})
    assert created.status_code == 201, created.get_json()
    battle_id: str = created.get_json()["id"]
    return battle_id


def send(client: FlaskClient, battle_id: str, command: dict[str, Any], **kwargs: Any) -> TestResponse:
    return client.post(f"/battles/{battle_id}/commands", json=command, **kwargs)


def accepted(client: FlaskClient, battle_id: str, command: dict[str, Any]) -> int:
    posted = send(client, battle_id, command)
    assert posted.status_code == 202, posted.get_json()
    version: int = posted.get_json()["version"]
    return version


def head_version(client: FlaskClient, battle_id: str) -> int:
    version: int = client.get(f"/battles/{battle_id}").get_json()["version"]
    return version


def fold(store: Backend, battle_id: str) -> None:
    project_battle(store, store, battle_id)


def outcome(client: FlaskClient, battle_id: str, version: int) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/battles/{battle_id}/events/{version}").get_json()["outcome"]
    return found


def assert_problem(response: TestResponse, status: int, slug: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM_JSON
    body: dict[str, Any] = response.get_json()
    assert body["type"] == PROBLEMS + slug
    assert body["status"] == status
    assert body["title"]
    return body


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def mint(client: FlaskClient, battle_id: str, role: str, **fields: Any) -> dict[str, Any]:
    """A new token of the battle, minted by its GM (the client's own token): {id, token, role, ...}."""
    minted = client.post(f"/battles/{battle_id}/tokens", json={"role": role, **fields})
    assert minted.status_code == 201, minted.get_json()
    body: dict[str, Any] = minted.get_json()
    return body
