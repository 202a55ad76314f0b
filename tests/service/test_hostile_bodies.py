"""Bad input beyond the schema (issue 4): invalid UTF-8, deep nesting, huge numbers, duplicate member
names, wrong content types and random bytes are each a clean 4xx problem, and nothing is appended,
created or minted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.service.helpers import PROBLEM_JSON, create_battle, head_version

EXAMPLES = 60
CLEAN_REFUSALS = {400, 413, 415, 422}


@dataclass
class Target:
    """Where a body goes, and how to count what it could have added."""

    path: str
    count: Callable[[], int]


@pytest.fixture(params=["create a battle", "append a command", "mint a token"])
def target(request: pytest.FixtureRequest, client: FlaskClient, redis_store: Any) -> Target:
    battle_id = create_battle(client)
    if request.param == "create a battle":
        return Target("/battles", lambda: len(list(redis_store.battle_ids())))
    if request.param == "append a command":
        return Target(f"/battles/{battle_id}/commands", lambda: head_version(client, battle_id))
    return Target(f"/battles/{battle_id}/tokens", lambda: len(redis_store.tokens(battle_id)))


def nested(depth: int) -> str:
    return '{"type": "advance_phase", "dice": {"jam": ' + "[" * depth + "4" + "]" * depth + "}}"


HOSTILE: dict[str, tuple[bytes, str]] = {
    "a lone continuation byte": (b'{"type": "\x80"}', "application/json"),
    "a truncated sequence": (b'{"type": "advance_phase\xc3"}', "application/json"),
    "an overlong encoding": (b'{"type": "\xc0\xafadvance"}', "application/json"),
    "Latin-1 text": ('{"ruleset": "épic", "role": "gm"}'.encode("latin-1"), "application/json"),
    "a lone surrogate escape": (
        b'{"ruleset": "\\ud800", "role": "\\udfff", "type": "\\ud83d"}',
        "application/json",
    ),
    "UTF-16": ('{"type": "advance_phase"}'.encode("utf-16"), "application/json"),
    "nested 40 deep": (nested(40).encode(), "application/json"),
    "nested 100,000 deep": (("[" * 100_000 + "]" * 100_000).encode(), "application/json"),
    "an integer beyond 2^53": (b'{"type": "advance_phase", "ruleset": 9007199254740993}', "application/json"),
    "a 5,000-digit integer": (b'{"caf": ' + b"9" * 5000 + b"}", "application/json"),
    "a negative 64-bit integer": (b'{"expires_in": -9223372036854775808}', "application/json"),
    "a float that overflows": (b'{"expires_in": 1e400}', "application/json"),
    "NaN": (b'{"expires_in": NaN}', "application/json"),
    "duplicate member names": (
        b'{"type": "advance_phase", "type": "conclude", "role": "gm", "role": "x"}',
        "application/json",
    ),
    "a nested duplicate": (
        b'{"ruleset": "epic", "options": {"tie_rule": 1, "tie_rule": 2}}',
        "application/json",
    ),
    "no body": (b"", "application/json"),
    "JSON null": (b"null", "application/json"),
    "a bare string": (b'"advance_phase"', "application/json"),
    "a form": (b"type=advance_phase&ruleset=epic&role=gm", "application/x-www-form-urlencoded"),
    "plain text": (b'{"type": "advance_phase", "ruleset": "epic", "role": "gm"}', "text/plain"),
    "XML": (b"<command type='advance_phase'/>", "application/xml"),
    "multipart": (b"--x\r\n\r\n{}\r\n--x--", "multipart/form-data; boundary=x"),
    "no content type": (b'{"type": "advance_phase", "ruleset": "epic", "role": "gm"}', ""),
}


@pytest.mark.parametrize("raw, content_type", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_body_is_a_clean_4xx_and_adds_nothing(
    client: FlaskClient, target: Target, raw: bytes, content_type: str
) -> None:
    before = target.count()

    answer = client.post(
        target.path, data=raw, headers={"Content-Type": content_type} if content_type else {}
    )

    assert answer.status_code in CLEAN_REFUSALS, answer.get_data(as_text=True)
    assert answer.mimetype == PROBLEM_JSON
    assert "Traceback" not in answer.get_data(as_text=True)
    assert target.count() == before


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(raw=st.binary(max_size=256))
def test_random_bytes_never_get_past_parsing(client: FlaskClient, target: Target, raw: bytes) -> None:
    before = target.count()
    answer = client.post(target.path, data=raw, content_type="application/json")
    assert answer.status_code in CLEAN_REFUSALS | {201, 202}
    if answer.status_code in CLEAN_REFUSALS:
        assert answer.mimetype == PROBLEM_JSON and target.count() == before


@settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(body=JSON_VALUES)
def test_random_json_is_answered_without_a_5xx(client: FlaskClient, target: Target, body: Any) -> None:
    before = target.count()
    answer = client.post(target.path, json=body)
    assert answer.status_code < 500, answer.get_data(as_text=True)
    if answer.status_code >= 400:
        assert answer.mimetype == PROBLEM_JSON and target.count() == before
