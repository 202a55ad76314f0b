"""Where the document is served: Swagger UI at /docs from the installed bundle (no page loads a CDN), the
document as sorted YAML at /openapi.yaml, and the flask-smorest settings that place them and /openapi.json."""

from __future__ import annotations

from typing import Any

import yaml
from flask import Blueprint, Response, current_app, send_from_directory
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

from service.openapi.info import description

ASSETS_URL = "/docs/assets/"
YAML_MEDIA_TYPE = "application/yaml"  # RFC 9512
SMOREST = "flask-smorest"

assets = Blueprint("docs_assets", __name__, url_prefix="/docs/assets")
document = Blueprint("docs_yaml", __name__)


@assets.route("/<path:filename>")
def asset(filename: str) -> Response:
    return send_from_directory(str(swagger_ui_path), filename, max_age=3600)


@document.route("/openapi.yaml")
def openapi_yaml() -> Response:
    """The document /openapi.json serves, as YAML (what `make openapi` checks in as openapi.yaml)."""
    return Response(to_yaml(served_spec()), mimetype=YAML_MEDIA_TYPE)


def served_spec() -> dict[str, Any]:
    spec: dict[str, Any] = current_app.extensions[SMOREST]["apis"][""]["ext_obj"].spec.to_dict()
    return spec


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: object) -> bool:
        return True  # shared sub-dicts are written out in full: no &anchors for a reader to chase


def to_yaml(spec: dict[str, Any]) -> str:
    """Deterministic YAML: keys sorted, no anchors."""
    return yaml.dump(spec, Dumper=_Dumper, sort_keys=True, allow_unicode=True, width=100)


def openapi_settings(title: str, version: str) -> dict[str, object]:
    """flask-smorest settings: /openapi.json and Swagger UI at /docs."""
    return {
        "API_TITLE": title,
        "API_VERSION": version,
        "OPENAPI_VERSION": "3.1.0",
        "API_SPEC_OPTIONS": {"info": {"description": description()}},
        "OPENAPI_URL_PREFIX": "/",
        "OPENAPI_JSON_PATH": "openapi.json",
        "OPENAPI_SWAGGER_UI_PATH": "/docs",
        "OPENAPI_SWAGGER_UI_URL": ASSETS_URL,
    }
