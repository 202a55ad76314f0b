"""Interactive API docs at /docs: Swagger UI served from the installed bundle, so no page loads a CDN."""

from __future__ import annotations

from flask import Blueprint, Response, send_from_directory
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

ASSETS_URL = "/docs/assets/"

assets = Blueprint("docs_assets", __name__, url_prefix="/docs/assets")


@assets.route("/<path:filename>")
def asset(filename: str) -> Response:
    return send_from_directory(str(swagger_ui_path), filename, max_age=3600)


def openapi_settings(title: str, version: str) -> dict[str, object]:
    """flask-smorest settings: /openapi.json and Swagger UI at /docs."""
    return {
        "API_TITLE": title,
        "API_VERSION": version,
        "OPENAPI_VERSION": "3.1.0",
        "OPENAPI_URL_PREFIX": "/",
        "OPENAPI_JSON_PATH": "openapi.json",
        "OPENAPI_SWAGGER_UI_PATH": "/docs",
        "OPENAPI_SWAGGER_UI_URL": ASSETS_URL,
    }
