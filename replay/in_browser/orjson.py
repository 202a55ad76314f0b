"""A stand-in for orjson in the browser, where the compiled library cannot be had: the zip ships it as the
top-level `orjson`, so eventstore.canonical runs unchanged.

It writes nothing itself: `dumps` raises the TypeError that sends canonical_json to `json.dumps`, the
definition orjson only matches faster. `loads` is `json.loads` refusing what orjson refuses (NaN and
Infinity, a number past a double, a byte order mark, a lone surrogate), so a line unreadable on the server is
unreadable here; only the parser's own words in such a line's reason may differ."""

from __future__ import annotations

import json
import math
import re
from typing import Any

STAND_IN = True  # eventstore.canonical then calls json.dumps itself, sparing an exception per value
OPT_SORT_KEYS = 1 << 5
OPT_PASSTHROUGH_DATACLASS = 1 << 11
OPT_PASSTHROUGH_DATETIME = 1 << 9
OPT_PASSTHROUGH_SUBCLASS = 1 << 8
BOM = b"\xef\xbb\xbf"
# a backslash escaped, or a \u escape: the walk over them finds a surrogate not in a pair
_ESCAPE = re.compile(rb"\\\\|\\u([0-9a-fA-F]{4})")


class JSONEncodeError(TypeError):
    pass


class JSONDecodeError(json.JSONDecodeError):
    pass


def dumps(value: Any, option: int | None = None) -> bytes:
    raise JSONEncodeError("the browser's stand-in leaves every value to json.dumps")


def loads(raw: bytes | bytearray | memoryview | str) -> Any:
    data = bytes(raw) if not isinstance(raw, str) else raw.encode("utf-8", "surrogatepass")
    if data.startswith(BOM):
        raise JSONDecodeError("a UTF-8 byte order mark is no JSON", data.decode("utf-8", "replace"), 0)
    text = data.decode("utf-8")  # invalid UTF-8 is a UnicodeDecodeError, a ValueError as orjson's is
    if b"\\u" in data and _lone_surrogate(data):
        raise JSONDecodeError("a lone surrogate escape", text, 0)
    return _DECODER.decode(text)


def _lone_surrogate(data: bytes) -> bool:
    low_due = -1  # where the low half of a pair must start, after a high half
    for found in _ESCAPE.finditer(data):
        code = int(found.group(1), 16) if found.group(1) else -1
        if low_due >= 0:
            if found.start() != low_due or not 0xDC00 <= code <= 0xDFFF:
                return True
            low_due = -1
        elif 0xD800 <= code <= 0xDBFF:
            low_due = found.end()
        elif 0xDC00 <= code <= 0xDFFF:
            return True
    return low_due >= 0


def _refused(name: str) -> Any:
    raise JSONDecodeError(f"{name} is no JSON", name, 0)


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise JSONDecodeError("a number past a double", text, 0)
    return value


# one decoder for every line: json.loads given hooks would build one per call
_DECODER = json.JSONDecoder(parse_constant=_refused, parse_float=_finite)
