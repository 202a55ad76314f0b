"""JSON in and out for every endpoint: I-JSON request bodies, the request's preferences (`Prefer: wait`,
`Accept-Language`), JSON answers and the headers that say what they vary with."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from flask import Response, request

from schemas.base import MAX_SAFE_INTEGER
from service.http.problems import Problem
from summaries.catalogs import DEFAULT, LANGUAGES

JSON_MIMETYPE = "application/json"
NO_STORE = {"Cache-Control": "no-store"}  # a body carrying a secret or a token: no cache may keep it
NO_STORE_DOC = {  # how the OpenAPI document tells clients of it
    "Cache-Control": {
        "description": "`no-store`: the body carries a secret or a token, which no cache may keep",
        "schema": {"type": "string", "enum": ["no-store"]},
    }
}
NAMES_SHOWN = 10  # a refusal names this many repeated members, not thousands
MAX_DEPTH = 32  # far deeper than any command; deeper bodies are refused before any schema walks them
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")  # an escaped UTF-16 surrogate, maybe a lone one
_COMPACT = json.JSONEncoder(separators=(",", ":")).encode  # built once, not per answer as json.dumps would
_WAIT = re.compile(r"(?:^|[\s,;])wait\s*=\s*\"?(\d+(?:\.\d+)?)\"?", re.IGNORECASE)


def read_json() -> Any:
    """The request body as I-JSON: 415 unless the content type is JSON, 400 when it does not parse, holds a
    duplicate member name, a number no JSON client can read back exactly, or nests too deep.

    Reading the body is where werkzeug enforces MAX_CONTENT_LENGTH (413)."""
    mimetype = request.mimetype
    if mimetype != JSON_MIMETYPE and not mimetype.endswith("+json"):
        raise Problem(415, "unsupported-media-type", "The request body must be application/json")
    raw = request.get_data(cache=False)
    try:
        return parse_json(raw)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise Problem(400, "malformed-json", "The request body is not valid JSON", str(error)) from None


def read_json_or_empty() -> Any:
    """A body that may be left out: no body reads as `{}`, any other as `read_json` reads it."""
    if not request.get_data(cache=True):  # read here first: the cap on bodies applies as for any other
        return {}
    return read_json()


def parse_json(raw: bytes) -> Any:
    """`raw` read as I-JSON, else ValueError (or RecursionError); an import reads its bodies with it too."""
    body = json.loads(
        raw.decode("utf-8"),  # RFC 8259 §8.1: UTF-8 only (json.loads would also guess UTF-16 or 32)
        parse_constant=_not_json,
        parse_int=_integer,
        parse_float=_finite,
        object_pairs_hook=_unique_members,
    )
    _check_depth(body)
    if _SURROGATE.search(raw):
        json.dumps(body, ensure_ascii=False).encode("utf-8")  # a lone surrogate is no Unicode text
    return body


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON number")  # Python's json would accept NaN and Infinity


def _integer(text: str) -> int:
    value = int(text)
    if abs(value) > MAX_SAFE_INTEGER:
        raise ValueError(f"the integer {text[:20]}… is beyond ±(2^53 - 1)")
    return value


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} overflows a double")
    return value


def _unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Linear in the pairs, also when refusing: a body of one name repeated costs no more than its parse."""
    members = dict(pairs)
    if len(members) != len(pairs):
        counts = Counter(name for name, _ in pairs)
        repeated = sorted(name for name, count in counts.items() if count > 1)
        shown = ", ".join(name[:40] for name in repeated[:NAMES_SHOWN])
        more = f" and {len(repeated) - NAMES_SHOWN} more" if len(repeated) > NAMES_SHOWN else ""
        raise ValueError(f"duplicate member name(s): {shown}{more}")
    return members


def _check_depth(body: Any) -> None:
    level, depth = [body], 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
        level = [
            child
            for value in level
            for child in (
                value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
            )
        ]


def _children(value: Any) -> Any:
    if isinstance(value, dict):
        return value.values()
    return value if isinstance(value, list) else ()


def prefer_wait(cap_s: float) -> float | None:
    """`Prefer: wait=N` (RFC 7240) capped at cap_s, or None when the client did not ask to wait."""
    # one environ look-up (the server joins repeated fields into one); getlist walks every header
    sent = request.headers.get("Prefer")
    found = None if sent is None else _WAIT.search(sent)
    return None if found is None else min(float(found.group(1)), cap_s)


def language() -> str:
    """The request's language among the summaries' catalogs (werkzeug's parsed Accept-Language, q-values
    first; default en)."""
    best: str = request.accept_languages.best_match(LANGUAGES, default=DEFAULT)
    return best


def compact_json(body: Any) -> str:
    """An answer's JSON text as `json_response` sends it, for a caller that keeps the text."""
    return _COMPACT(body)


def json_response(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    text = body if isinstance(body, str) else _COMPACT(body)
    return Response(text, status, dict(headers or {}), mimetype=JSON_MIMETYPE)


def per_reader(response: Response) -> Response:
    """An answer whose body depends on the token (what it may see): no cache serves it to another."""
    response.vary.add("Authorization")
    return response


def localized(response: Response, lang: str) -> Response:
    """Say which language the answer is in, and that it varies with the request's Accept-Language."""
    response.headers["Content-Language"] = lang
    response.vary.add("Accept-Language")
    return response
