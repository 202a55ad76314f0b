"""GET /viewer/{id} and its files: a static page needing no token, strict headers, siege.js as the client."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from service.endpoints.viewer import FILES
from summaries import TERMS, TOLD
from summaries.catalogs import message
from summaries.viewer import terms_js
from tests.service.helpers import assert_problem

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(p.name for p in FILES.glob("*.js"))
JS_TYPES = {"text/javascript", "application/javascript"}
# the term families the viewer shows (summaries/<ruleset>.py): phases, section kinds and winds on the map,
# modifier labels in the log
SHOWN = tuple(family for told in TOLD.values() for family in told.viewer)


def test_the_page_is_served_without_a_token_and_holds_no_battle_data(client: FlaskClient) -> None:
    page = client.get("/viewer/5874f1cc0000000000000000")
    other = client.get("/viewer/anything-else")

    assert page.status_code == 200 and page.mimetype == "text/html"
    assert page.data == other.data  # the same static page for every id: nothing of a battle is in it
    assert b'<script type="module" src="/viewer/static/viewer.js">' in page.data


def test_the_page_and_its_files_carry_strict_headers(client: FlaskClient) -> None:
    for path in ["/viewer/b1", "/viewer/static/viewer.js", "/viewer/static/viewer.css"]:
        headers = client.get(path).headers
        policy = headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy, path
        assert "'unsafe-inline'" not in policy and "frame-ancestors 'none'" in policy
        assert headers["Referrer-Policy"] == "no-referrer"
        assert headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("name", MODULES)
def test_every_module_is_served_as_javascript(client: FlaskClient, name: str) -> None:
    served = client.get(f"/viewer/static/{name}")

    assert served.status_code == 200
    assert served.mimetype in JS_TYPES
    imported = re.findall(r'from "\./([\w.-]+)"', served.get_data(as_text=True))
    assert [m for m in imported if m not in MODULES] == []  # every import is one of the served files


def test_siege_js_is_the_client_of_clients_js(client: FlaskClient) -> None:
    served = client.get("/viewer/static/siege.js")

    assert served.status_code == 200
    assert served.data == (ROOT / "clients" / "js" / "siege.js").read_bytes()


def test_a_missing_file_or_a_way_out_of_the_folder_is_a_404_problem(client: FlaskClient) -> None:
    assert_problem(client.get("/viewer/static/nothing.js"), 404, "not-found")
    assert_problem(client.get("/viewer/static/../endpoints/viewer.py"), 404, "not-found")
    assert_problem(client.get("/viewer/static/%2e%2e/endpoints/viewer.py"), 404, "not-found")


def test_the_viewer_page_is_in_the_openapi_document_and_its_files_are_not(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").get_json()["paths"]

    assert "get" in paths["/viewer/{battle_id}"]
    assert "text/html" in paths["/viewer/{battle_id}"]["get"]["responses"]["200"]["content"]
    assert [p for p in paths if p.startswith("/viewer/static")] == []


def viewer_terms() -> dict[str, dict[str, str]]:
    source = (FILES / "terms.js").read_text()
    terms: dict[str, dict[str, str]] = json.loads(source[source.index("{") : source.rindex("}") + 1])
    return terms


def test_the_terms_the_map_shows_are_the_catalogs_words() -> None:
    terms = viewer_terms()

    assert sorted(terms) == ["en", "fr"]
    assert terms["en"].keys() == terms["fr"].keys()
    assert {(lang, i): w for lang in terms for i, w in terms[lang].items()} == {
        (lang, i): message(lang, i) for lang in terms for i in terms[lang]
    }


def test_terms_js_is_what_summaries_viewer_writes() -> None:
    """Written again by `python -m summaries.viewer > service/viewer_files/terms.js` when a word changes."""
    assert (FILES / "terms.js").read_text() == terms_js()


def test_the_viewer_has_a_term_for_every_code_of_the_families_it_shows() -> None:
    """A label a rule adds (rules/*/`Label`) is missing here until terms.js has its words."""
    shown = {
        f"{family}.{code}"
        for families in TERMS.values()
        for family, codes in families.items()
        if family in SHOWN
        for code in codes
    }

    assert {family for families in TERMS.values() for family in families} >= set(SHOWN)
    assert set(viewer_terms()["en"]) == shown
