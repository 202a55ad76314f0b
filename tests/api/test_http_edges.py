"""HTTP edges of issue 8: duplicate names refused in linear time, an ASCII-only Idempotency-Key, and
the request id every answer echoes."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import WALL, assert_problem, create_battle, head_version, send


def test_a_body_repeating_one_name_thousands_of_times_is_a_400_naming_it_once(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    body = "{" + ",".join('"type":"x"' for _ in range(1400)) + "}"  # under the test app's 16 KB cap

    refused = client.post(f"/battles/{battle_id}/commands", data=body, content_type="application/json")

    problem = assert_problem(refused, 400, "malformed-json")
    assert problem["detail"] == "duplicate member name(s): type"
    assert head_version(client, battle_id) == 1


def test_a_refusal_names_ten_repeated_members_and_counts_the_rest(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    body = "{" + ",".join(f'"k{i:03}":1,"k{i:03}":2' for i in range(25)) + "}"

    refused = client.post(f"/battles/{battle_id}/commands", data=body, content_type="application/json")

    detail = assert_problem(refused, 400, "malformed-json")["detail"]
    assert detail == "duplicate member name(s): " + ", ".join(f"k{i:03}" for i in range(10)) + " and 15 more"


@pytest.mark.parametrize("key", ["clé-1", "tab\there", "\x7f", "é" * 10])
def test_an_idempotency_key_outside_printable_ascii_is_a_422_and_appends_nothing(
    client: FlaskClient, key: str
) -> None:
    battle_id = create_battle(client)

    problem = assert_problem(
        send(client, battle_id, WALL, headers={"Idempotency-Key": key}), 422, "validation"
    )

    assert "Idempotency-Key" in problem["errors"]
    assert head_version(client, battle_id) == 1


def test_a_printable_ascii_idempotency_key_is_taken(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    key = {"Idempotency-Key": '"8e03978e-40d5-43e8-bc93-6894a57f9324" ~!@#'}

    first, again = send(client, battle_id, WALL, headers=key), send(client, battle_id, WALL, headers=key)

    assert (first.status_code, again.status_code) == (202, 202)
    assert head_version(client, battle_id) == 2
