"""A delivery checked against the committed openapi.yaml's `webhooks` object, as a receiver generated or
validated from the document would: the operation of the body's `type`, each header parameter it requires
(with its schema), the request body's media type and its schema, with the OpenAPI 3.1 schema validator."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from openapi_schema_validator import OAS31Validator, oas31_format_checker
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.workers.receiver import Received

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi.yaml"
URI = "urn:siege:openapi"  # the document's base: its own `#/components/...` references resolve in it


@cache
def document() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(DOCUMENT.read_text(encoding="utf-8"))
    return loaded


@cache
def _registry() -> Registry[Any]:
    resource = Resource.from_contents(document(), default_specification=DRAFT202012)
    registry: Registry[Any] = Registry().with_resource(URI, resource)
    return registry


def _validator(schema: dict[str, Any]) -> OAS31Validator:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):  # a reference into the document, from outside it
        schema = {**schema, "$ref": URI + ref}
    return OAS31Validator(schema, registry=_registry(), format_checker=oas31_format_checker)


def _problems(schema: dict[str, Any], instance: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in _validator(schema).iter_errors(instance)]


def check(received: Received) -> str:
    """The delivery's event type once it fits the document; AssertionError naming what does not."""
    kind = json.loads(received.body)["type"]
    webhooks = document()["webhooks"]
    assert kind in webhooks, f"{kind} is not in the document's webhooks ({sorted(webhooks)})"
    operation = webhooks[kind]["post"]
    for parameter in operation["parameters"]:
        assert parameter["in"] == "header"
        name = parameter["name"].lower()
        assert name in received.headers or not parameter.get("required"), f"{kind}: no {name} header"
        if name in received.headers:
            assert _problems(parameter["schema"], received.headers[name]) == [], (
                name,
                received.headers[name],
            )
    content = operation["requestBody"]["content"]
    media_type = received.headers["content-type"].split(";")[0].strip()
    assert media_type in content, f"{kind}: sent as {media_type}, documented as {sorted(content)}"
    problems = _problems(content[media_type]["schema"], json.loads(received.body))
    assert problems == [], f"{kind}: {problems}"
    return str(kind)
