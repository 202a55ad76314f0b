"""gunicorn's own refusals as RFC 9457 problems, like every other error of the API.

gunicorn refuses some requests before the app is called (a request line or headers over its limits, a
request line or header it cannot parse) and answers them in HTML; it has no setting for that page. Its
workers write it with `gunicorn.util.write_error(sock, status, reason, message)`, which `install` replaces
in each worker with one writing problem+json (tests/processes/test_gunicorn_conf.py holds the answers)."""

from __future__ import annotations

import json
from typing import Any

from gunicorn import util  # type: ignore[import-untyped]

from schemas.problems import ABOUT_BLANK, PROBLEM_BASE
from service.http.problems import HTTP_PROBLEMS, PROBLEM_JSON

DETAIL_MAX = 200  # gunicorn's message quotes the request: a refusal repeats no more of it than this
# what gunicorn answers with our own types; its others (a forbidden proxy line, an unsupported transfer
# coding) keep its reason phrase under `about:blank`, since ours would say something else
OURS = frozenset({400, 414, 431, 500})


def answer(status: int, reason: str, message: str) -> bytes:
    """The whole HTTP answer: gunicorn closes the connection after it, so it says so."""
    slug, title = HTTP_PROBLEMS[status] if status in OURS else (None, reason)
    problem: dict[str, Any] = {
        "type": PROBLEM_BASE + slug if slug else ABOUT_BLANK,
        "title": title,
        "status": status,
    }
    if message:
        problem["detail"] = message[:DETAIL_MAX]
    body = json.dumps(problem).encode("ascii")  # ensure_ascii: any byte of the request is escaped
    head = f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: {PROBLEM_JSON}\r\n"
    return f"{head}Content-Length: {len(body)}\r\n\r\n".encode("latin-1") + body


def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    util.write_nonblock(sock, answer(status_int, reason, mesg))


def install() -> None:
    """In a worker, once: a gunicorn without `write_error` would answer HTML again, so it fails here."""
    if not callable(getattr(util, "write_error", None)):
        raise RuntimeError("gunicorn.util.write_error is gone: its refusals would not be problem+json")
    util.write_error = write_problem
