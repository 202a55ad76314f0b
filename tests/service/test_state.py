"""State and time travel (DESIGN §5): `?at=v` equals the live projection at v, from snapshots or not."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from tests.fixtures.redis_server import Backend
from tests.service.helpers import CSM, GOFF, WALL, accepted, assert_problem, create_battle
from workers.projection import project_battle

EX_EP_01: list[dict[str, Any]] = [
    WALL,
    GOFF,
    CSM,
    {"type": "give_order", "stand_id": "csm", "order": "charge"},
    {"type": "advance_phase"},
    {"type": "climb", "stand_id": "csm", "section_id": "W1"},
    {"type": "advance_phase"},
    {"type": "advance_phase"},
    {
        "type": "assault",
        "stand_id": "csm",
        "section_id": "W1",
        "dice": {"attacker": [6, 6], "defender": [1, 2]},
    },
    {"type": "repair", "gate_id": "W1"},  # rejected: state unchanged, version moves on
]


def _play_live(client: FlaskClient, store: Backend, snapshot_every: int) -> tuple[str, dict[int, Any]]:
    """Play EX-EP-01, folding after every command; return the live state seen at each version."""
    battle_id = create_battle(client)
    project_battle(store, store, battle_id, snapshot_every=snapshot_every)
    live = {1: client.get(f"/battles/{battle_id}/state").get_json()}
    for command in EX_EP_01:
        version = accepted(client, battle_id, command)
        project_battle(store, store, battle_id, snapshot_every=snapshot_every)
        live[version] = client.get(f"/battles/{battle_id}/state").get_json()
        assert live[version]["version"] == version
    return battle_id, live


@pytest.mark.parametrize("snapshot_every", [1000, 3], ids=["from version 1", "from snapshots"])
@pytest.mark.example("EX-EP-01")
def test_time_travel_equals_the_live_state_at_every_version(
    client: FlaskClient, redis_store: RedisEventStore, snapshot_every: int
) -> None:
    battle_id, live = _play_live(client, redis_store, snapshot_every)

    for version, state in live.items():
        assert client.get(f"/battles/{battle_id}/state?at={version}").get_json() == state


def test_the_assault_shows_in_the_state(client: FlaskClient, redis_store: RedisEventStore) -> None:
    _battle, live = _play_live(client, redis_store, 1000)

    stands = live[10]["game"]["stands"]
    goff = stands["goff"] if isinstance(stands, dict) else next(s for s in stands if s["id"] == "goff")
    assert goff["destroyed"] is True


def test_state_before_any_fold_is_folded_on_read(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    accepted(client, battle_id, WALL)

    state = client.get(f"/battles/{battle_id}/state")

    assert state.status_code == 200
    assert state.get_json()["version"] == 2
    assert state.get_json()["ruleset"] == "epic"


def test_time_travel_past_the_projection_folds_from_the_log(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    project_battle(redis_store, redis_store, battle_id)
    accepted(client, battle_id, WALL)

    assert client.get(f"/battles/{battle_id}/state").get_json()["version"] == 1
    assert client.get(f"/battles/{battle_id}/state?at=2").get_json()["version"] == 2


def test_a_version_beyond_the_head_is_a_404_and_below_one_or_past_2_53_a_422(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    assert_problem(client.get(f"/battles/{battle_id}/state?at=2"), 404, "version-not-found")
    assert_problem(client.get(f"/battles/{battle_id}/state?at={2**53 - 1}"), 404, "version-not-found")
    assert_problem(client.get(f"/battles/{battle_id}/state?at=0"), 422, "validation")
    assert_problem(client.get(f"/battles/{battle_id}/state?at={2**53}"), 422, "validation")
    assert_problem(client.get("/battles/nope/state"), 404, "battle-not-found")
