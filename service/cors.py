"""CORS for browser plugins (flask-cors): configured origins, bearer tokens in headers, never cookies; the
preflight allows the methods the routes take and the headers the API reads."""

from __future__ import annotations

from flask import Flask
from flask_cors import CORS

from service import limits, logs
from service.config import ServiceConfig

REQUEST_HEADERS = [
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-Match",
    "If-None-Match",  # polling an event or a page cheaply: a 304 until it changes
    "Prefer",
    "Last-Event-ID",
    logs.HEADER,
]
EXPOSED_HEADERS = [
    "ETag",
    "Location",
    "Link",
    "Retry-After",
    "Preference-Applied",
    "WWW-Authenticate",
    limits.POLICY_HEADER,
    limits.STATE_HEADER,
    logs.HEADER,
]
PREFLIGHT_CACHE_S = 600


def install(app: Flask, config: ServiceConfig) -> None:
    """Call once every route is registered: the preflight lists the methods some route takes. Credentials
    stay off: tokens travel in Authorization, so `*` grants nothing a token does not."""
    if not config.cors_origins:
        return
    CORS(
        app,
        origins=list(config.cors_origins),
        methods=sorted({method for rule in app.url_map.iter_rules() for method in rule.methods or ()}),
        allow_headers=REQUEST_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        supports_credentials=False,
        max_age=PREFLIGHT_CACHE_S,
        send_wildcard="*" in config.cors_origins,
    )
