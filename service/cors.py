"""CORS for browser plugins (flask-cors): configured origins, bearer tokens in headers, never cookies."""

from __future__ import annotations

from flask import Flask
from flask_cors import CORS

from service import logs
from service.config import ServiceConfig

REQUEST_HEADERS = [
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-Match",
    "Prefer",
    "Last-Event-ID",
    logs.HEADER,
]
EXPOSED_HEADERS = ["ETag", "Location", "Link", "Retry-After", "Preference-Applied", logs.HEADER]
PREFLIGHT_CACHE_S = 600


def install(app: Flask, config: ServiceConfig) -> None:
    """Credentials stay off: tokens travel in Authorization, so `*` grants nothing a token does not."""
    if not config.cors_origins:
        return
    CORS(
        app,
        origins=list(config.cors_origins),
        allow_headers=REQUEST_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        supports_credentials=False,
        max_age=PREFLIGHT_CACHE_S,
        send_wildcard="*" in config.cors_origins,
    )
