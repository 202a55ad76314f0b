"""The committed openapi.yaml is what the code generates (DESIGN §5); the docs are served."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from openapi_spec_validator import OpenAPIV31SpecValidator

from service.openapi import render

COMMITTED = Path(__file__).resolve().parents[2] / "openapi.yaml"
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
REGENERATE = (
    "openapi.yaml drifted from the code: run `make openapi` (python -m service.openapi > openapi.yaml)"
)


def test_the_committed_openapi_yaml_matches_the_code() -> None:
    assert COMMITTED.exists(), REGENERATE
    assert COMMITTED.read_text(encoding="utf-8") == render(), REGENERATE


def test_generation_is_deterministic() -> None:
    assert render() == render()


def test_openapi_json_is_served_and_documents_every_command(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()

    assert spec["openapi"].startswith("3.1")
    union = spec["components"]["schemas"]["EpicCommand"]
    assert union["discriminator"]["propertyName"] == "type"
    assert "conclude" in union["discriminator"]["mapping"]
    body = spec["paths"]["/battles/{battle_id}/commands"]["post"]["requestBody"]
    rulesets = body["content"]["application/json"]["schema"]["anyOf"]
    assert {"$ref": "#/components/schemas/EpicCommand"} in rulesets


def test_interactive_docs_are_served_with_local_assets(client: FlaskClient) -> None:
    page = client.get("/docs")

    assert page.status_code == 200
    assert b"/docs/assets/swagger-ui-bundle.js" in page.data
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200


def served(client: FlaskClient) -> dict[str, Any]:
    spec: dict[str, Any] = client.get("/openapi.json").get_json()
    return spec


def operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        if method in HTTP_METHODS
    ]


def test_the_served_document_is_valid_openapi_3_1(client: FlaskClient) -> None:
    errors = [
        f"{list(e.absolute_path)}: {e.message}" for e in OpenAPIV31SpecValidator(served(client)).iter_errors()
    ]

    assert errors == []


def test_every_operation_has_a_unique_camel_case_operation_id(client: FlaskClient) -> None:
    ids = [operation.get("operationId") for _, _, operation in operations(served(client))]

    assert all(isinstance(i, str) and re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", i) for i in ids), ids
    assert len(set(ids)) == len(ids), ids


def test_operation_ids_are_the_view_names_so_they_stay_stable(client: FlaskClient) -> None:
    ids = {(method, path): op["operationId"] for method, path, op in operations(served(client))}

    assert ids[("post", "/battles")] == "createBattle"
    assert ids[("post", "/battles/{battle_id}/commands")] == "sendCommand"
    assert ids[("get", "/battles/{battle_id}/events")] == "listEvents"
    assert ids[("post", "/battles/{battle_id}/tokens")] == "mintToken"
