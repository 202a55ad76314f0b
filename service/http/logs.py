"""Structured logs: one JSON object a line, one access line per request, its request id on every line."""

from __future__ import annotations

import logging
import re
import secrets
import time
from contextvars import ContextVar, Token

from flask import Flask, Response, request

from telemetry.logs import request_id  # the formatter (telemetry/logs.py) writes it on every line

HEADER = "X-Request-ID"
SANE_ID = re.compile(r"[\w.:/+=@-]{1,128}", re.ASCII)  # what tracing headers carry: no spaces, no controls
ACCESS = logging.getLogger("siege.access")
_serving: ContextVar[tuple[Token[str | None], float] | None] = ContextVar("serving", default=None)


def install(app: Flask) -> None:
    """Call first in the factory: its before_request runs before any other, its after_request last."""
    app.before_request(_begin)
    app.after_request(_finish)
    app.teardown_request(_end)


def _begin() -> None:
    given = request.headers.get(HEADER)
    chosen = given if given is not None and SANE_ID.fullmatch(given) else secrets.token_hex(8)
    _serving.set((request_id.set(chosen), time.perf_counter()))


def _finish(response: Response) -> Response:
    response.headers[HEADER] = request_id.get() or ""
    if ACCESS.isEnabledFor(logging.INFO):
        served = request._get_current_object()  # type: ignore[attr-defined]  # one proxy look-up, not five
        serving = _serving.get()
        took_ms = round((time.perf_counter() - serving[1]) * 1000, 2) if serving else None
        http = {
            "method": served.method,
            "path": served.path,
            "status": response.status_code,
            "ms": took_ms,
            "remote": served.remote_addr,
        }
        line = (served.method, served.path, response.status_code)
        # makeRecord + handle: `ACCESS.info` would also walk the stack for its caller, on every request
        record = ACCESS.makeRecord(
            ACCESS.name, logging.INFO, "", 0, "%s %s %d", line, None, extra={"http": http}
        )
        ACCESS.handle(record)
    return response


def _end(_: BaseException | None) -> None:
    """Lines logged after the request, in the same thread, carry no stale id."""
    serving = _serving.get()
    if serving is not None:
        _serving.set(None)
        request_id.reset(serving[0])
