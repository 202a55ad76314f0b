"""Side tokens (DESIGN §4.9): a side commands only its own units, judged on the battle's state at the head
the command lands after, even before any worker has folded it; a violation is a 403 that appends nothing."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from flask.testing import FlaskClient

from eventstore.memory_store import MemoryEventStore
from eventstore.records import Appended, AppendRequest
from eventstore.redis_store import RedisEventStore
from service.app import create_app
from tests.fixtures.app import GmClient, config_for
from tests.service.helpers import (
    CSM,
    GOFF,
    WALL,
    accepted,
    assert_problem,
    bearer,
    create_battle,
    fold,
    head_version,
    mint,
    outcome,
    send,
)

ORC = {**GOFF, "id": "orc", "location": {"kind": "inside"}}


@pytest.fixture
def battle(client: FlaskClient) -> str:
    battle_id = create_battle(client)
    for command in (WALL, CSM, GOFF):
        accepted(client, battle_id, command)
    return battle_id


def side(client: FlaskClient, battle_id: str, name: str) -> dict[str, str]:
    return bearer(mint(client, battle_id, f"side:{name}")["token"])


def climb(stand_id: str) -> dict[str, Any]:
    return {"type": "climb", "stand_id": stand_id, "section_id": "W1"}


def test_a_side_commands_its_own_stand(client: FlaskClient, battle: str) -> None:
    assert send(client, battle, climb("csm"), headers=side(client, battle, "attacker")).status_code == 202


def test_commanding_the_other_sides_stand_is_a_403_that_appends_nothing(
    client: FlaskClient, battle: str
) -> None:
    refused = send(client, battle, climb("goff"), headers=side(client, battle, "attacker"))

    problem = assert_problem(refused, 403, "forbidden")
    assert "defender" in problem["detail"]
    assert 'error="insufficient_scope"' in refused.headers["WWW-Authenticate"]
    assert head_version(client, battle) == 4


def test_a_barrage_with_any_enemy_firer_is_refused(client: FlaskClient, battle: str) -> None:
    barrage = {"type": "barrage", "stand_ids": ["csm", "goff"], "weapon_id": "w", "barrage_points": 1}
    for name in ("attacker", "defender"):
        refused = send(client, battle, {**barrage, "kind": "direct"}, headers=side(client, battle, name))
        assert_problem(refused, 403, "forbidden")
    assert head_version(client, battle) == 4


def test_a_side_places_only_its_own_stands(client: FlaskClient, battle: str) -> None:
    attacker = side(client, battle, "attacker")
    assert send(client, battle, {**CSM, "id": "csm2"}, headers=attacker).status_code == 202
    assert_problem(send(client, battle, ORC, headers=attacker), 403, "forbidden")


def test_a_side_the_ruleset_does_not_have_gets_no_token(client: FlaskClient, battle: str) -> None:
    refused = client.post(f"/battles/{battle}/tokens", json={"role": "side:blue"})

    assert "attacker, defender" in assert_problem(refused, 422, "validation")["errors"]["role"][0]


@pytest.mark.parametrize(
    "command",
    [{"type": "advance_phase"}, {"type": "conclude"}, {**WALL, "id": "W2"}],
    ids=["advance_phase", "conclude", "add_fortification"],
)
def test_the_referees_commands_need_a_gm_token(
    client: FlaskClient, battle: str, command: dict[str, Any]
) -> None:
    for name in ("attacker", "defender"):
        assert_problem(send(client, battle, command, headers=side(client, battle, name)), 403, "forbidden")
    assert head_version(client, battle) == 4


def test_ownership_is_judged_at_the_head_before_any_fold(
    client: FlaskClient, battle: str, redis_store: RedisEventStore
) -> None:
    accepted(client, battle, ORC)  # not folded: only the log knows the orc is the defender's
    assert redis_store.projection(battle) is None

    assert_problem(
        send(client, battle, climb("orc"), headers=side(client, battle, "attacker")), 403, "forbidden"
    )
    assert send(client, battle, climb("orc"), headers=side(client, battle, "defender")).status_code == 202


def test_ownership_is_judged_on_a_lagging_projection_plus_the_log_after_it(
    client: FlaskClient, battle: str, redis_store: RedisEventStore
) -> None:
    fold(redis_store, battle)
    accepted(client, battle, ORC)

    assert_problem(
        send(client, battle, climb("orc"), headers=side(client, battle, "attacker")), 403, "forbidden"
    )


def test_an_unknown_stand_is_left_to_the_rules(
    client: FlaskClient, battle: str, redis_store: RedisEventStore
) -> None:
    posted = send(client, battle, climb("ghost"), headers=side(client, battle, "attacker"))
    assert posted.status_code == 202
    fold(redis_store, battle)
    assert outcome(client, battle, posted.get_json()["version"])["reason"] == "unknown_entity"


def test_a_stale_if_match_is_a_412_before_ownership_is_judged(client: FlaskClient, battle: str) -> None:
    refused = send(
        client, battle, climb("goff"), headers={**side(client, battle, "attacker"), "If-Match": '"2"'}
    )
    assert_problem(refused, 412, "stale-version")


def test_a_side_entry_records_its_side_and_token(client: FlaskClient, battle: str) -> None:
    token = mint(client, battle, "side:attacker")
    version = send(client, battle, climb("csm"), headers=bearer(token["token"])).get_json()["version"]

    entry = client.get(f"/battles/{battle}/events/{version}").get_json()

    assert entry["actor"] == f"side:attacker/{token['id']}"


def test_an_observer_only_reads(client: FlaskClient, battle: str) -> None:
    observer = bearer(mint(client, battle, "observer")["token"])
    for path in ("", "/state", "/events", "/events/1"):
        assert client.get(f"/battles/{battle}{path}", headers=observer).status_code == 200
    assert_problem(send(client, battle, climb("csm"), headers=observer), 403, "forbidden")
    assert_problem(
        client.post(f"/battles/{battle}/tokens", json={"role": "gm"}, headers=observer), 403, "forbidden"
    )
    assert head_version(client, battle) == 4


class BusyStore(MemoryEventStore):
    """The real in-memory store on a battle so busy that another command always lands first: every append
    that expects a version finds one more entry in front of it."""

    def append(self, request: AppendRequest) -> Appended:
        if request.expected_version is not None:
            other = dataclasses.replace(request.entry, idempotency_key=None, actor="someone-else")
            super().append(AppendRequest(battle_id=request.battle_id, entry=other))
        return super().append(request)


def test_a_side_command_that_never_gets_a_quiet_head_is_a_409(redis_client: Any, redis_url: str) -> None:
    store = BusyStore()
    app = create_app(config_for(redis_url), store=store, queue_redis=redis_client)
    client = GmClient(app, app.response_class)
    battle_id = create_battle(client)
    accepted(client, battle_id, WALL)
    accepted(client, battle_id, CSM)

    refused = send(client, battle_id, climb("csm"), headers=side(client, battle_id, "attacker"))

    assert_problem(refused, 409, "contention")
    assert refused.headers["Retry-After"] == "1"
    assert not [entry for entry in store.iter_entries(battle_id) if entry.actor.startswith("side:")]
