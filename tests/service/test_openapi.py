"""The committed openapi.yaml is what the code generates (DESIGN §5); the docs are served."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import yaml
from flask.testing import FlaskClient
from openapi_spec_validator import OpenAPIV31SpecValidator

from schemas.commands import command_schemas, load_command
from schemas.problems import PROBLEM_BASE, PROBLEM_TYPES
from schemas.registry import schema_rulesets
from service.http.problems import HTTP_PROBLEMS
from service.openapi.document import render

COMMITTED = Path(__file__).resolve().parents[2] / "openapi.yaml"
SERVICE = COMMITTED.parent / "service"
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


def test_every_command_component_carries_an_example_that_the_api_accepts(client: FlaskClient) -> None:
    schemas = served(client)["components"]["schemas"]

    for ruleset in schema_rulesets():
        for kind, schema in command_schemas(ruleset).items():
            (example,) = schemas[schema.__name__.removesuffix("Schema")]["examples"]
            assert load_command(ruleset, example).type == kind


def test_the_command_body_offers_one_working_example_per_command_type(client: FlaskClient) -> None:
    body = served(client)["paths"]["/battles/{battle_id}/commands"]["post"]["requestBody"]
    examples = body["content"]["application/json"]["examples"]

    expected = {f"{ruleset}.{kind}" for ruleset in schema_rulesets() for kind in command_schemas(ruleset)}
    assert set(examples) == expected
    for name, example in examples.items():
        ruleset, kind = name.split(".")
        assert load_command(ruleset, example["value"]).type == kind


def test_the_outcome_result_is_documented_per_command_type(client: FlaskClient) -> None:
    schemas = served(client)["components"]["schemas"]
    result = schemas["Outcome"]["properties"]["result"]

    assert {"$ref": "#/components/schemas/EpicResult"} in result["anyOf"]
    climb = schemas["EpicClimbResult"]["allOf"]
    assert {"$ref": "#/components/schemas/EpicResultClimbMade"} in climb
    assert "movement_left_cm" in schemas["EpicResultClimbMade"]["properties"]
    assert "from" in schemas["EpicResultMoved"]["properties"]  # the codec's `json` name, not `origin`


def test_the_description_explains_the_flow_and_lists_every_problem_type(client: FlaskClient) -> None:
    spec = served(client)
    text = spec["info"]["description"]

    for step in ("Create", "Tokens", "Command", "Wait or poll", "Read", "Audit"):
        assert f"**{step}**" in text
    listed = {one["const"] for one in spec["components"]["schemas"]["ProblemType"]["oneOf"]}
    assert listed == {PROBLEM_BASE + slug for slug in PROBLEM_TYPES} | {"about:blank"}


def test_every_problem_type_the_code_raises_is_listed() -> None:
    raised = {slug for path in SERVICE.rglob("*.py") for slug in problem_slugs(path)}

    assert raised, "no Problem(...) call found"
    assert raised <= set(PROBLEM_TYPES), raised - set(PROBLEM_TYPES)


def problem_slugs(path: Path) -> set[str]:
    """The literal slugs of `Problem(status, "slug", ...)` calls and of the status → slug table."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [
        n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Problem"
    ]
    slugs = {str(c.args[1].value) for c in calls if len(c.args) > 1 and isinstance(c.args[1], ast.Constant)}
    slugs |= {slug for slug, _ in HTTP_PROBLEMS.values()} if path.name == "problems.py" else set()
    return slugs


def test_openapi_yaml_is_served_beside_openapi_json(client: FlaskClient) -> None:
    answer = client.get("/openapi.yaml")

    assert answer.status_code == 200
    assert answer.mimetype == "application/yaml"
    assert yaml.safe_load(answer.data) == served(client)
