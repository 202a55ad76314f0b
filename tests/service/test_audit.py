"""`GET /battles/{id}/audit` on the real store: an honest battle passes; a rewritten log entry breaks the
chain, a rewritten outcome is a replay difference, a forged roll fails the dice once `conclude` shows them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from eventstore import keys
from eventstore.redis_store import RedisEventStore
from rules.registry import get_ruleset
from tests.fixtures.app import GmClient
from tests.fixtures.redis_server import Backend
from tests.service.helpers import CLIMB_FIGHT, accepted, assert_problem, bearer, create_battle, fold, mint

Fields = dict[str, str]
ASSAULT = 10  # the version of the assault above (version 1 is battle_created)


def played(client: FlaskClient, store: Backend, *, conclude: bool = False) -> str:
    battle_id = create_battle(client)
    for command in [*CLIMB_FIGHT, *([{"type": "conclude"}] if conclude else [])]:
        accepted(client, battle_id, command)
    fold(store, battle_id)
    return battle_id


def audited(client: FlaskClient, battle_id: str) -> dict[str, Any]:
    answered = client.get(f"/battles/{battle_id}/audit")
    assert answered.status_code == 200, answered.get_json()
    body: dict[str, Any] = answered.get_json()
    return body


def rewrite(client: redis.Redis[Any], key: str, version: int, change: Callable[[Fields], Fields]) -> None:
    """Rewrite one entry of a stream behind the service's back: a stream only grows, so copy it whole."""
    rows = [
        (entry_id.decode(), {k.decode(): v.decode() for k, v in f.items()})
        for entry_id, f in client.xrange(key)
    ]
    client.delete(key)
    for entry_id, fields in rows:
        client.xadd(key, change(fields) if entry_id == f"0-{version}" else fields, id=entry_id)


def edit_json(field: str, edit: Callable[[Any], None]) -> Callable[[Fields], Fields]:
    def change(fields: Fields) -> Fields:
        value = json.loads(fields[field])
        edit(value)
        return {**fields, field: json.dumps(value, sort_keys=True, separators=(",", ":"))}

    return change


def test_an_honest_battle_passes_its_audit(client: FlaskClient, redis_store: RedisEventStore) -> None:
    battle_id = played(client, redis_store)

    report = audited(client, battle_id)

    assert report["ok"] is True and report["truncated"] is False and report["status"] == "ok"
    assert (report["ruleset"], report["rules_version"]) == ("epic", get_ruleset("epic").rules_version)
    assert report["supported"] == list(get_ruleset("epic").rules_versions)
    assert (report["head_version"], report["audited_upto"]) == (ASSAULT, ASSAULT)
    assert report["chain"] == {
        "ok": True,
        "checked": ASSAULT,
        "head_version": ASSAULT,
        "head_hash": redis_store.head(battle_id).hash,
        "broken_at": None,
        "reason": None,
    }
    assert report["replay"] == {
        "ok": True, "compared": ASSAULT, "pending": 0, "first_difference": None, "skipped": False
    }  # fmt: skip
    assert report["dice"] == {
        "verifiable": False,
        "commitment_ok": None,
        "checked_rolls": 0,
        "mismatches": [],
    }


def test_outcomes_not_projected_yet_are_pending_not_differences(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = played(client, redis_store)
    accepted(client, battle_id, {"type": "advance_phase"})

    replay = audited(client, battle_id)["replay"]

    assert replay == {
        "ok": True,
        "compared": ASSAULT,
        "pending": 1,
        "first_difference": None,
        "skipped": False,
    }


def test_a_rewritten_log_entry_breaks_the_chain_at_its_version(
    client: FlaskClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle_id = played(client, redis_store)
    rewrite(redis_client, keys.log(battle_id), 3, edit_json("data", lambda data: data.update(caf=9)))

    report = audited(client, battle_id)

    assert report["ok"] is False
    chain = report["chain"]
    assert (chain["ok"], chain["broken_at"], chain["reason"], chain["checked"]) == (
        False,
        3,
        "hash_mismatch",
        2,
    )


def test_a_rewritten_outcome_is_the_replays_first_difference(
    client: FlaskClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle_id = played(client, redis_store)
    rewrite(redis_client, keys.outcomes(battle_id), 4, edit_json("outcome", lambda o: o.update(summary="x")))

    report = audited(client, battle_id)

    assert report["ok"] is False and report["chain"]["ok"] is True
    assert report["replay"]["first_difference"] == {"version": 4, "what": "outcome"}
    assert report["replay"]["ok"] is False


def test_after_conclude_the_seed_matches_its_commitment_and_every_stream_roll_recomputes(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = played(client, redis_store, conclude=True)

    report = audited(client, battle_id)

    assert report["ok"] is True
    dice = report["dice"]
    assert (dice["verifiable"], dice["commitment_ok"], dice["mismatches"]) == (True, True, [])
    assert dice["checked_rolls"] >= 2  # the assault's two attacker dice at least


def test_a_forged_stream_roll_is_reported_once_the_seed_is_revealed(
    client: FlaskClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle_id = played(client, redis_store, conclude=True)
    honest = json.loads(redis_store.outcome(battle_id, ASSAULT) or "{}")["rolls"][0]
    forged = honest["value"] % 6 + 1

    def forge(outcome: dict[str, Any]) -> None:
        outcome["rolls"][0]["value"] = forged

    rewrite(redis_client, keys.outcomes(battle_id), ASSAULT, edit_json("outcome", forge))
    report = audited(client, battle_id)

    assert report["ok"] is False
    assert report["replay"]["first_difference"] == {"version": ASSAULT, "what": "outcome"}
    assert report["dice"]["mismatches"] == [
        {
            "version": ASSAULT,
            "slot": honest["slot"],
            "n": 0,
            "die": "d6",
            "value": forged,
            "expected": honest["value"],
        }
    ]


def test_a_log_longer_than_the_bound_is_audited_up_to_it_and_says_truncated(
    client_with: Callable[..., GmClient], redis_store: RedisEventStore
) -> None:
    client = client_with(audit_max_entries=4)
    battle_id = played(client, redis_store)

    report = audited(client, battle_id)

    assert (report["truncated"], report["head_version"], report["audited_upto"]) == (True, ASSAULT, 4)
    assert (report["chain"]["checked"], report["replay"]["compared"]) == (4, 4)


def test_an_unknown_battle_has_no_audit(client: FlaskClient, app: Flask) -> None:
    assert_problem(client.get("/battles/nope/audit"), 404, "battle-not-found")


def test_the_audit_needs_a_token_of_the_battle(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    refused = client.get(f"/battles/{battle_id}/audit", headers=bearer("not-a-token"))

    assert_problem(refused, 401, "unauthorized")


def test_an_observer_may_read_the_audit(client: FlaskClient, redis_store: RedisEventStore) -> None:
    battle_id = played(client, redis_store)
    observer = mint(client, battle_id, "observer")["token"]

    answered = client.get(f"/battles/{battle_id}/audit", headers=bearer(observer))

    assert answered.status_code == 200 and answered.get_json()["ok"] is True


def test_a_log_the_rules_cannot_fold_is_reported_not_a_server_error(
    client: FlaskClient, redis_store: RedisEventStore, redis_client: redis.Redis[Any]
) -> None:
    battle_id = played(client, redis_store)
    rewrite(redis_client, keys.log(battle_id), 1, edit_json("data", lambda data: data.update(ruleset="nope")))

    report = audited(client, battle_id)

    assert (report["chain"]["broken_at"], report["chain"]["reason"]) == (1, "hash_mismatch")
    assert report["replay"]["first_difference"]["version"] == 1
    assert report["replay"]["first_difference"]["what"].startswith("fold_failed")
