"""Creating a battle and reading its summary (DESIGN §5: POST /battles, GET /battles/{id})."""

from __future__ import annotations

import hashlib

from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from rules.dice import stream_key
from tests.service.helpers import WALL, accepted, assert_problem, create_battle, fold


def test_creating_a_battle_answers_201_with_its_location_and_a_seed_commitment(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    created = client.post(
        "/battles", json={"ruleset": "epic", "name": "Siege of Vraks", "client_seed": "abc"}
    )

    assert created.status_code == 201
    body = created.get_json()
    assert created.headers["Location"] == f"/battles/{body['id']}"
    assert set(body) == {
        "id",
        "ruleset",
        "version",
        "rules_version",
        "options",
        "dice_commitment",
        "gm_token",
    }
    assert (body["ruleset"], body["version"], body["rules_version"]) == ("epic", 1, "epic-2")
    secret = bytes.fromhex(redis_store.secret(body["id"]))
    assert len(secret) == 32
    assert body["dice_commitment"] == hashlib.sha256(secret).hexdigest()
    assert len(body["gm_token"]) >= 32


def test_the_battle_pins_the_effective_options_defaults_included(client: FlaskClient) -> None:
    created = client.post("/battles", json={"ruleset": "epic", "options": {"tie_rule": "both_destroyed"}})

    options = created.get_json()["options"]
    assert options["tie_rule"] == "both_destroyed"
    assert options["default_section_capacity"] == 1
    summary = client.get(f"/battles/{created.get_json()['id']}").get_json()
    assert summary["options"] == options


def test_version_one_records_the_creation_as_battle_created(client: FlaskClient) -> None:
    battle_id = create_battle(client, name="Vraks", client_seed="vtt")

    entry = client.get(f"/battles/{battle_id}/events/1").get_json()

    assert entry["type"] == "battle_created"
    assert entry["data"]["name"] == "Vraks"
    assert entry["data"]["client_seed"] == "vtt"
    assert entry["prev_hash"] == "0" * 64


def test_the_summary_tells_head_chain_and_projected_version(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    accepted(client, battle_id, WALL)

    before = client.get(f"/battles/{battle_id}")
    fold(redis_store, battle_id)
    after = client.get(f"/battles/{battle_id}").get_json()

    assert before.status_code == 200
    assert before.get_json()["version"] == 2
    assert before.get_json()["projected_version"] < 2
    assert after["projected_version"] == 2
    assert after["head_hash"] == redis_store.head(battle_id).hash
    assert after["ruleset"] == "epic"


def test_the_summary_etag_is_the_chain_head_and_answers_304_when_unchanged(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    fold(redis_store, battle_id)
    first = client.get(f"/battles/{battle_id}")
    etag = first.headers["ETag"]
    assert etag == f'"{first.get_json()["head_hash"]}"'

    assert client.get(f"/battles/{battle_id}", headers={"If-None-Match": etag}).status_code == 304
    accepted(client, battle_id, WALL)
    moved = client.get(f"/battles/{battle_id}", headers={"If-None-Match": etag})
    assert moved.status_code == 200
    assert moved.headers["ETag"] != etag


def test_the_summary_etag_changes_when_the_projection_catches_up(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    lagging = client.get(f"/battles/{battle_id}")
    assert lagging.headers["ETag"] == f'"{lagging.get_json()["head_hash"]}/p0"'

    fold(redis_store, battle_id)

    caught_up = client.get(f"/battles/{battle_id}", headers={"If-None-Match": lagging.headers["ETag"]})
    assert caught_up.status_code == 200
    assert caught_up.headers["ETag"] == f'"{caught_up.get_json()["head_hash"]}"'


def test_an_unknown_ruleset_is_a_422_naming_the_field(client: FlaskClient) -> None:
    body = assert_problem(client.post("/battles", json={"ruleset": "chess"}), 422, "validation")
    assert "ruleset" in body["errors"]


def test_unknown_or_bad_options_are_a_422_naming_each_option(client: FlaskClient) -> None:
    bad = {"tie_rule": "coin_flip", "default_section_capacity": 0, "gate_needs_two_failures": "yes", "fog": 1}

    body = assert_problem(
        client.post("/battles", json={"ruleset": "epic", "options": bad}), 422, "validation"
    )

    assert set(body["errors"]["options"]) == set(bad)


def test_unknown_fields_at_creation_are_a_422(client: FlaskClient) -> None:
    body = assert_problem(client.post("/battles", json={"ruleset": "epic", "seed": "x"}), 422, "validation")
    assert body["errors"] == {"seed": ["Unknown field."]}


def test_an_unknown_battle_is_a_404_problem_whatever_the_token(client: FlaskClient) -> None:
    other = create_battle(client)
    gm_of_other = {"Authorization": f"Bearer {client.gm_tokens[other]}"}  # type: ignore[attr-defined]

    body = assert_problem(client.get("/battles/nope", headers=gm_of_other), 404, "battle-not-found")

    assert "nope" in body["detail"]


def test_a_battle_created_without_a_client_seed_gets_one_so_its_dice_cannot_be_foreseen(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    """The stream key is sha256(server_seed || client_seed) and the public dice_commitment is
    sha256(server_seed): with an empty client seed anyone holding a token could compute every die before
    it is rolled. Omitted or empty, the service draws one and records it in battle_created."""
    seeds = []
    for body in (
        {"ruleset": "epic"},
        {"ruleset": "epic", "client_seed": ""},
        {"ruleset": "epic", "client_seed": "t7"},
    ):
        battle_id = client.post("/battles", json=body).get_json()["id"]
        created = redis_store.entry(battle_id, 1)
        assert created is not None
        client_seed = str(created.data["client_seed"])
        server_seed = bytes.fromhex(redis_store.secret(battle_id))
        key = stream_key(server_seed, client_seed)
        assert key != bytes.fromhex(str(created.data["dice_commitment"]))  # not the public commitment
        seeds.append(client_seed)
    drawn, drawn_again, given = seeds
    assert len(drawn) == len(drawn_again) == 32 and drawn != drawn_again
    assert given == "t7"
