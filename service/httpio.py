"""Request and response plumbing shared by the endpoints: JSON bodies, `Prefer`, entity tags, JSON answers."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from flask import Response, request

from service.problems import Problem

JSON_MIMETYPE = "application/json"
_WAIT = re.compile(r"(?:^|[\s,;])wait\s*=\s*\"?(\d+(?:\.\d+)?)\"?", re.IGNORECASE)


def read_json() -> Any:
    """The request body as JSON: 415 unless the content type is JSON, 400 when it does not parse.

    Reading the body is where werkzeug enforces MAX_CONTENT_LENGTH (413)."""
    mimetype = request.mimetype
    if mimetype != JSON_MIMETYPE and not mimetype.endswith("+json"):
        raise Problem(415, "unsupported-media-type", "The request body must be application/json")
    raw = request.get_data(cache=False)
    try:
        return json.loads(raw, parse_constant=_not_json)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise Problem(400, "malformed-json", "The request body is not valid JSON", str(error)) from None


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON number")  # Python's json would accept NaN and Infinity


def prefer_wait(cap_s: float) -> float | None:
    """`Prefer: wait=N` (RFC 7240) capped at cap_s, or None when the client did not ask to wait."""
    found = _WAIT.search(",".join(request.headers.getlist("Prefer")))
    return None if found is None else min(float(found.group(1)), cap_s)


def entity_tags(header: str | None) -> list[str] | None:
    """The tags of an If-Match / If-None-Match header, unquoted; None when absent, ["*"] for any."""
    if header is None:
        return None
    tags = [tag.strip() for tag in header.split(",") if tag.strip()]
    return [tag.removeprefix("W/").strip('"') for tag in tags]


def quoted(tag: str) -> str:
    return f'"{tag}"'


def json_response(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    text = body if isinstance(body, str) else json.dumps(body, separators=(",", ":"))
    return Response(text, status, dict(headers or {}), mimetype=JSON_MIMETYPE)
