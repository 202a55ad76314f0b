"""CORS for browser plugins (flask-cors): configured origins, bearer tokens in headers, never cookies; the
preflight allows the methods the routes take and the headers the API reads."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, request
from flask_cors import CORS
from flask_cors.core import ACL_ORIGIN, ACL_REQUEST_HEADER_PRIVATE_NETWORK, get_cors_headers, get_cors_options

from service.access import caller_limits
from service.config import ServiceConfig
from service.http import logs

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
    caller_limits.POLICY_HEADER,
    caller_limits.STATE_HEADER,
    logs.HEADER,
]
PREFLIGHT_CACHE_S = 600
ORIGINS_REMEMBERED = 64  # distinct Origin values whose fields are kept; others are worked out each time


def install(app: Flask, config: ServiceConfig) -> None:
    """Call once every route is registered: the preflight lists the methods some route takes. Credentials
    stay off: tokens travel in Authorization, so `*` grants nothing a token does not."""
    if not config.cors_origins:
        return
    options: dict[str, Any] = dict(
        origins=list(config.cors_origins),
        methods=sorted({method for rule in app.url_map.iter_rules() for method in rule.methods or ()}),
        allow_headers=REQUEST_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        supports_credentials=False,
        max_age=PREFLIGHT_CACHE_S,
        send_wildcard="*" in config.cors_origins,
    )
    CORS(app, **options)
    app.after_request(SimpleAnswers(app, options))  # runs before flask-cors' own hook, which then stops


class SimpleAnswers:
    """The CORS fields of an answer to anything but a preflight depend only on the request's Origin (one
    resource, every path): flask-cors works them out once per Origin, they are stamped from then on, and
    flask-cors' own hook, finding them there, leaves the answer alone (~8 % of a command's CPU)."""

    def __init__(self, app: Flask, options: Mapping[str, Any]) -> None:
        self._options = get_cors_options(app, options)  # what CORS(app, **options) resolves them to
        self._fields: dict[str | None, list[tuple[str, Any]]] = {}
        self._lock = threading.Lock()

    def __call__(self, response: Response) -> Response:
        headers = request.headers
        if request.method == "OPTIONS" or ACL_REQUEST_HEADER_PRIVATE_NETWORK in headers:
            return response  # flask-cors answers these as it always did
        if ACL_ORIGIN in response.headers:
            return response  # set already (an error answer: flask-cors stamps those as they are made)
        origin = headers.get("Origin")
        fields = self._fields.get(origin)
        if fields is None:
            fields = list(get_cors_headers(self._options, headers, request.method).items())
            with self._lock:
                if fields and len(self._fields) < ORIGINS_REMEMBERED:  # stray Origins never fill it
                    self._fields[origin] = fields
        for name, value in fields:
            response.headers.add(name, value)
        return response
