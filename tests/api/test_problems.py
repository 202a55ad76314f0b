"""One error shape (RFC 9457): stable types, kept headers, no stack traces."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.api.helpers import assert_problem, create_battle


def test_a_wrong_method_is_a_405_that_keeps_allow(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    refused = client.delete(f"/battles/{battle_id}")

    assert_problem(refused, 405, "method-not-allowed")
    assert set(refused.headers["Allow"].split(", ")) >= {"GET", "HEAD"}


def test_an_unknown_path_is_a_404_problem(client: FlaskClient) -> None:
    assert_problem(client.get("/no/such/path"), 404, "not-found")


def test_an_unexpected_error_is_a_500_problem_without_the_trace(app: Flask) -> None:
    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("secret detail /work/main/service")

    crashed = app.test_client().get("/boom")

    body = assert_problem(crashed, 500, "internal")
    assert "secret" not in crashed.get_data(as_text=True)
    assert "Traceback" not in crashed.get_data(as_text=True)
    assert set(body) == {"type", "title", "status"}
