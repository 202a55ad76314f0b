"""`POST /battles/import`: a verified export comes back as a new battle whose audit is clean and whose
re-export verifies with the same outcomes; a tampered or unusable file is a 422 and creates nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import rules.undo
from eventstore.redis_store import RedisEventStore
from replay.verify import verify
from service.app import create_app
from tests.fixtures.app import GmClient, config_for
from tests.fixtures.redis_server import Backend
from tests.service.exports import (
    TAMPERS,
    UNDONE,
    UNUSABLE,
    UNUSABLE_LINES,
    Lines,
    event,
    exported,
    first_stream_roll,
    imported,
    line_of,
    played,
    played_undos,
)  # fmt: skip
from tests.service.helpers import assert_problem, fold


def battle_count(store: Backend) -> int:
    return len(list(store.battle_ids()))


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
def test_an_imported_battle_audits_clean_and_re_exports_the_same_outcomes(
    client: FlaskClient, redis_store: RedisEventStore, ruleset: str
) -> None:
    original = played(client, redis_store, ruleset)
    lines = exported(client, original)

    answer = imported(client, lines)

    assert answer.status_code == 201, answer.get_json()
    body: dict[str, Any] = answer.get_json()
    copy = body["id"]
    assert copy != original and answer.headers["Location"] == f"/battles/{copy}"
    assert answer.headers["Cache-Control"] == "no-store"  # it carries the copy's GM token
    assert body["version"] == len(lines) and body["ruleset"] == ruleset and body["gm_token"]
    assert redis_store.secret(copy) == redis_store.secret(original)
    fold(redis_store, copy)  # what the workers do with the projection job the import scheduled
    audit = client.get(f"/battles/{copy}/audit", headers={"Authorization": f"Bearer {body['gm_token']}"})
    assert audit.get_json()["ok"] is True, audit.get_json()
    again = exported(client, copy, Authorization=f"Bearer {body['gm_token']}")
    assert verify(lambda: iter(again)).status == "verified"
    for version in range(1, len(lines) + 1):
        before, after = event(lines, version), event(again, version)
        assert after["data"] == before["data"] and after["id"] == before["id"]
        assert after["source"] == f"/battles/{copy}"


def counted(lines: Lines) -> tuple[Callable[[], Iterator[bytes]], list[int]]:
    """`lines` as a verifier's `Lines`, and [passes open now, most open at once]."""
    open_now = [0, 0]

    def opened() -> Iterator[bytes]:
        open_now[0] += 1
        open_now[1] = max(open_now)
        try:
            yield from lines
        finally:
            open_now[0] -= 1

    return opened, open_now


@pytest.mark.parametrize("case", sorted(UNDONE))
def test_a_battle_with_an_applied_undo_imports(
    client: FlaskClient, redis_store: RedisEventStore, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    if case == "nested_rewinds":  # one remembered state: a rewind folds through undos it must rewind again
        monkeypatch.setattr(rules.undo, "KEEP", 1)
    lines = exported(client, played_undos(client, redis_store, case))
    opened, open_now = counted(lines)
    assert verify(opened).status == "verified"
    assert open_now[1] >= (3 if case == "nested_rewinds" else 2)  # passes overlapped: main and rewinds

    answer = imported(client, lines)

    assert answer.status_code == 201, answer.get_json()
    copy = answer.get_json()["id"]
    fold(redis_store, copy)
    again = exported(client, copy, Authorization=f"Bearer {answer.get_json()['gm_token']}")
    assert [event(again, v)["data"] for v in range(1, len(again) + 1)] == [
        event(lines, v)["data"] for v in range(1, len(lines) + 1)
    ]


@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_a_tampered_export_is_refused_naming_its_version_and_creates_nothing(
    client: FlaskClient, redis_store: RedisEventStore, tamper: str
) -> None:
    make, version, kind = TAMPERS[tamper]
    lines = make(exported(client, played(client, redis_store)))
    before = battle_count(redis_store)

    problem = assert_problem(imported(client, lines), 422, "import-invalid")

    assert (problem["kind"], problem["version"]) == (kind, version(lines))
    assert problem["line"] == line_of(lines, version(lines)), problem
    assert f"version {version(lines)}: {kind}" in problem["detail"]
    assert battle_count(redis_store) == before


@pytest.mark.parametrize("case", sorted(UNUSABLE))
def test_an_unusable_file_is_refused_and_creates_nothing(
    client: FlaskClient, redis_store: RedisEventStore, case: str
) -> None:
    lines = UNUSABLE[case](exported(client, played(client, redis_store)))
    before = battle_count(redis_store)

    problem = assert_problem(imported(client, lines), 422, "import-invalid")

    assert problem["kind"] == "unusable" and problem["reason"]
    assert problem["line"] == UNUSABLE_LINES[case](lines), problem
    assert battle_count(redis_store) == before


def test_a_stream_die_the_fold_cannot_read_is_reported_as_a_die_once_the_seed_is_known(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    """docs/export-format.md §7.2 checks a version's stream dice before its outcome: a die recorded as "six"
    is the seed's `dice` finding, not the fold's failure; before `conclude` no seed judges it: `outcome`."""
    spoil = TAMPERS["stream_die_not_a_number"][0]
    lines = exported(client, played(client, redis_store))
    version, roll = first_stream_roll(lines)  # the honest export verifies: its value is the seed's

    problem = assert_problem(imported(client, spoil(lines)), 422, "import-invalid")

    assert (problem["kind"], problem["version"], problem["line"]) == ("dice", version, version), problem
    assert problem["reason"].endswith(f"is six; the seed gives {roll['value']}"), problem
    unconcluded = spoil(exported(client, played(client, redis_store, conclude=False)))
    found = verify(lambda: iter(unconcluded)).finding
    assert found is not None and (found.kind, found.version, found.line) == ("outcome", version, version)
    assert found.reason.startswith("the fold failed"), found


def test_a_battle_not_concluded_cannot_be_imported(client: FlaskClient, redis_store: RedisEventStore) -> None:
    lines = exported(client, played(client, redis_store, conclude=False))
    before = battle_count(redis_store)

    assert_problem(imported(client, lines), 422, "import-not-concluded")
    assert battle_count(redis_store) == before


def test_an_import_is_not_held_to_the_command_body_cap(
    client: FlaskClient, redis_store: RedisEventStore
) -> None:
    lines = exported(client, played(client, redis_store, "pathfinder"))
    assert len(b"".join(lines)) > 16 * 1024  # the test app's SIEGE_MAX_BODY_BYTES
    assert imported(client, lines).status_code == 201


def test_an_import_past_its_own_cap_is_a_413(
    redis_store: RedisEventStore, redis_client: Any, redis_url: str
) -> None:
    app: Flask = create_app(
        config_for(redis_url, import_max_bytes=1024), store=redis_store, queue_redis=redis_client
    )
    client = GmClient(app, app.response_class, use_cookies=False)
    lines = exported(client, played(client, redis_store))

    assert_problem(imported(client, lines), 413, "body-too-large")


def test_an_import_needs_the_service_key_and_json_lines(
    client: FlaskClient, redis_store: RedisEventStore, redis_client: Any, redis_url: str
) -> None:
    lines = exported(client, played(client, redis_store))
    keyed = create_app(
        config_for(redis_url, api_key="k"), store=redis_store, queue_redis=redis_client
    ).test_client()
    key = {"Authorization": "Bearer k"}

    assert_problem(imported(keyed, lines), 401, "unauthorized")
    assert_problem(imported(keyed, lines, Authorization="Bearer gm-of-another"), 401, "unauthorized")
    assert_problem(keyed.post("/battles/import", json={}, headers=key), 415, "unsupported-media-type")
    assert imported(keyed, lines, **key).status_code == 201
