"""`GET /battles/{id}/export` and the offline verifier: an honest export of either ruleset verifies, with its
dice once concluded; each kind of tampering is found at its version; unusable files are told apart."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from replay.verify import verify
from tests.service.exports import (
    CONCLUDE,
    TAMPERS,
    UNUSABLE,
    UNUSABLE_LINES,
    Lines,
    event,
    exported,
    line_of,
    played,
)  # fmt: skip
from tests.service.helpers import accepted, assert_problem, bearer, create_battle, mint


def verified(lines: Lines) -> dict[str, object]:
    return verify(lambda: iter(lines)).wire()


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
def test_an_honest_concluded_export_verifies_with_every_die(
    client: FlaskClient, redis_store: RedisEventStore, ruleset: str
) -> None:
    battle_id = played(client, redis_store, ruleset)
    lines = exported(client, battle_id)

    report = verify(lambda: iter(lines))

    head = redis_store.head(battle_id)
    assert report.status == "verified" and report.exit_code == 0, report.wire()
    assert (report.entries, report.head_hash, report.ruleset) == (head.version, head.hash, ruleset)
    assert report.dice["verifiable"] is True and report.dice["commitment_ok"] is True
    assert report.dice["checked_rolls"] > 0
    assert report.outcomes == {"compared": head.version, "pending": 0}


def test_each_line_is_a_cloudevent_of_one_version(client: FlaskClient, redis_store: RedisEventStore) -> None:
    battle_id = played(client, redis_store)
    lines = exported(client, battle_id)
    first, last = event(lines, 1), event(lines, CONCLUDE)

    assert len(lines) == CONCLUDE
    assert first["specversion"] == "1.0" and first["source"] == f"/battles/{battle_id}"
    assert first["type"] == "siege.command.battle_created" and first["sequence"] == "1"
    assert first["datacontenttype"] == "application/json"
    entry = redis_store.entry(battle_id, CONCLUDE)
    assert entry is not None and last["id"] == last["data"]["hash"] == entry.hash
    assert last["data"]["prev_hash"] == entry.prev_hash
    assert last["data"]["outcome"]["result"]["server_seed"] == redis_store.secret(battle_id)


def test_before_conclude_an_export_proves_its_chain_and_outcomes_but_not_its_dice(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = played(client, redis_store, conclude=False)
    lines = exported(client, battle_id)

    report = verified(lines)

    assert report["status"] == "verified"
    assert report["dice"] == {
        "verifiable": False,
        "commitment_ok": None,
        "checked_rolls": 0,
        "commitment": event(lines, 1)["data"]["data"]["dice_commitment"],
    }
    assert "server_seed" not in b"".join(lines).decode()


def test_outcomes_not_projected_yet_are_pending_at_the_end(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = played(client, redis_store, conclude=False)
    accepted(client, battle_id, {"type": "advance_phase"})
    lines = exported(client, battle_id)

    report = verified(lines)

    assert event(lines, len(lines))["data"]["outcome"] is None
    assert report["status"] == "verified" and report["outcomes"] == {"compared": len(lines) - 1, "pending": 1}


def test_any_read_token_exports_and_no_token_does_not(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    battle_id = create_battle(client)
    for role in ("observer", "side:attacker"):
        token = mint(client, battle_id, role)["token"]
        assert len(exported(client, battle_id, **bearer(token))) == 1
    assert_problem(client.get(f"/battles/{battle_id}/export", headers={"Authorization": "Bearer x"}), 401,
                   "unauthorized")  # fmt: skip
    assert_problem(client.get("/battles/nope/export"), 404, "battle-not-found")


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_a_tampered_export_names_its_first_bad_version_and_kind(
    client: FlaskClient, redis_store: RedisEventStore, tamper: str, ruleset: str
) -> None:
    make, version, kind = TAMPERS[tamper]
    lines = make(exported(client, played(client, redis_store, ruleset)))

    report = verify(lambda: iter(lines))

    assert report.status == "tampered" and report.exit_code == 1
    assert report.finding is not None, report.wire()
    assert (report.finding.kind, report.finding.version) == (kind, version(lines)), report.finding
    assert report.finding.line == line_of(lines, version(lines)), report.finding


@pytest.mark.parametrize("case", sorted(UNUSABLE))
def test_a_file_that_cannot_be_verified_is_unusable_with_a_reason(
    client: FlaskClient, redis_store: RedisEventStore, case: str
) -> None:
    lines = UNUSABLE[case](exported(client, played(client, redis_store)))

    report = verify(lambda: iter(lines))

    assert report.status == "unusable" and report.exit_code == 2
    assert report.finding is not None and report.finding.reason and "\n" not in report.finding.one_line()
    assert report.finding.line == UNUSABLE_LINES[case](lines), report.finding


def test_the_report_is_plain_json(client: FlaskClient, redis_store: RedisEventStore) -> None:
    assert json.loads(json.dumps(verified(exported(client, played(client, redis_store)))))["ok"] is True
