"""One error shape (RFC 9457): stable types, kept headers, no stack traces."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.service.helpers import assert_problem, bearer, create_battle, mint

HTTP_METHODS = {"GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE"}


def test_a_wrong_method_is_a_405_that_keeps_allow(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    refused = client.delete(f"/battles/{battle_id}")

    assert_problem(refused, 405, "method-not-allowed")
    assert set(refused.headers["Allow"].split(", ")) >= {"GET", "HEAD"}


def test_allow_on_every_documented_path_lists_exactly_its_documented_methods(client: FlaskClient) -> None:
    """Issue 22: `/battles/import` is POST only, yet its Allow listed GET (`/battles/{battle_id}` matched)."""
    spec = client.get("/openapi.json").get_json()
    wrong = {}
    for template, item in spec["paths"].items():
        documented = {method.upper() for method in item if method.upper() in HTTP_METHODS}
        expected = documented | ({"HEAD"} if "GET" in documented else set()) | {"OPTIONS"}
        path = re.sub(r"\{[a-z_]+\}", "x1", template.replace("{version}", "1"))
        refused = client.open(path, method="PATCH")  # no route takes PATCH
        assert_problem(refused, 405, "method-not-allowed")
        allowed = set(refused.headers["Allow"].split(", "))
        if allowed != expected:
            wrong[template] = sorted(allowed ^ expected)
    assert wrong == {}


def test_get_on_the_import_path_is_a_405_not_a_battle_named_import(client: FlaskClient) -> None:
    for method in ("GET", "HEAD"):
        refused = client.open("/battles/import", method=method)
        assert refused.status_code == 405
        assert set(refused.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}
    assert_problem(client.get("/battles/import"), 405, "method-not-allowed")
    assert_problem(client.get("/battles/importer"), 404, "battle-not-found")  # only the one word is taken


def test_an_unknown_path_is_a_404_problem(client: FlaskClient) -> None:
    problem = assert_problem(client.get("/no/such/path"), 404, "not-found")

    assert problem["detail"] == "Nothing is at /no/such/path."  # not werkzeug's "check your spelling"


def test_a_wrong_method_says_which_in_its_own_words(client: FlaskClient) -> None:
    problem = assert_problem(client.delete("/rulesets"), 405, "method-not-allowed")

    assert problem["detail"] == "/rulesets does not take DELETE; Allow lists the methods it takes."


def test_a_body_too_large_says_the_limit_in_bytes(app: Flask, client: FlaskClient) -> None:
    cap = app.config["MAX_CONTENT_LENGTH"]  # a chunked one too: tests/processes/test_gunicorn_conf.py

    refused = client.post(
        "/battles", data=b'{"name": "' + b"x" * cap + b'"}', content_type="application/json"
    )

    problem = assert_problem(refused, 413, "body-too-large")
    assert problem["max_bytes"] == cap
    assert f"limit of {cap} bytes" in problem["detail"]


def test_a_role_is_named_with_its_article(client: FlaskClient) -> None:
    battle_id = create_battle(client)
    observer = bearer(mint(client, battle_id, "observer")["token"])

    refused = client.post(f"/battles/{battle_id}/commands", json={"type": "advance_phase"}, headers=observer)

    assert assert_problem(refused, 403, "forbidden")["detail"].startswith("An observer token cannot do this")


def test_an_unexpected_error_is_a_500_problem_without_the_trace(app: Flask) -> None:
    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("secret detail /srv/siege/service")

    crashed = app.test_client().get("/boom")

    body = assert_problem(crashed, 500, "internal")
    assert "secret" not in crashed.get_data(as_text=True)
    assert "Traceback" not in crashed.get_data(as_text=True)
    assert set(body) == {"type", "title", "status"}


def test_a_missing_token_is_a_401_with_a_bearer_challenge(client: FlaskClient) -> None:
    battle_id = create_battle(client)

    refused = client.get(f"/battles/{battle_id}", headers={"Authorization": ""})
    wrong = client.get(f"/battles/{battle_id}", headers={"Authorization": "Bearer not-a-token"})

    assert_problem(refused, 401, "unauthorized")
    assert refused.headers["WWW-Authenticate"] == 'Bearer realm="siege"'
    assert_problem(wrong, 401, "unauthorized")
    assert wrong.headers["WWW-Authenticate"] == 'Bearer realm="siege", error="invalid_token"'


def test_the_bearer_scheme_is_case_insensitive(client: FlaskClient) -> None:
    created = client.post("/battles", json={"ruleset": "epic"}).get_json()
    lower = {"Authorization": f"bearer {created['gm_token']}"}
    assert client.get(f"/battles/{created['id']}", headers=lower).status_code == 200


@pytest.mark.parametrize(
    "path, method, body, status, slug",
    [
        ("/battles/{b}/tokens", "POST", {"role": "observer", "pad": "x" * 20_000}, 413, "body-too-large"),
        ("/battles", "POST", {"ruleset": "epic", "name": "x" * 20_000}, 413, "body-too-large"),
        ("/battles/{b}/tokens", "PUT", {}, 405, "method-not-allowed"),
        ("/battles/{b}/state", "POST", {}, 405, "method-not-allowed"),
    ],
)
def test_every_refusal_is_a_problem_with_a_stable_type(
    client: FlaskClient, path: str, method: str, body: dict[str, object], status: int, slug: str
) -> None:
    battle_id = create_battle(client)

    refused = client.open(path.format(b=battle_id), method=method, json=body)

    assert_problem(refused, status, slug)
    if status == 405:
        assert refused.headers["Allow"]
