"""Structured logs: one JSON object a line, one access line per request, its request id on every line."""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from contextvars import ContextVar
from datetime import UTC, datetime

from flask import Flask, Response, g, request

HEADER = "X-Request-ID"
SANE_ID = re.compile(r"[\w.:/+=@-]{1,128}", re.ASCII)  # what tracing headers carry: no spaces, no controls
ACCESS = logging.getLogger("siege.access")
request_id: ContextVar[str | None] = ContextVar("request_id", default=None)


class JsonFormatter(logging.Formatter):
    """`{"ts", "level", "logger", "message", "request_id"?, "http"?, "exc"?}`, one line per record."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        current = request_id.get()
        if current is not None:
            line["request_id"] = current
        http = getattr(record, "http", None)
        if http is not None:
            line["http"] = http
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, separators=(",", ":"), default=str)


def install(app: Flask) -> None:
    """Call first in the factory: its before_request runs before any other, its after_request last."""
    app.before_request(_begin)
    app.after_request(_finish)
    app.teardown_request(_end)


def _begin() -> None:
    given = request.headers.get(HEADER)
    g.request_id = given if given is not None and SANE_ID.fullmatch(given) else secrets.token_hex(8)
    g.request_token = request_id.set(g.request_id)
    g.request_started = time.perf_counter()


def _finish(response: Response) -> Response:
    response.headers[HEADER] = g.request_id
    if ACCESS.isEnabledFor(logging.INFO):
        took_ms = round((time.perf_counter() - g.request_started) * 1000, 2)
        http = {
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "ms": took_ms,
            "remote": request.remote_addr,
        }
        ACCESS.info("%s %s %d", request.method, request.path, response.status_code, extra={"http": http})
    return response


def _end(_: BaseException | None) -> None:
    token = g.pop("request_token", None)
    if token is not None:
        request_id.reset(token)
