"""Canonical JSON, the one byte-exact rendering that hashes the chain, fingerprints requests and writes every
outcome and state. It lives in eventstore, the lowest layer every writer and reader may import.

Sorted keys, compact separators, UTF-8 kept: `json.dumps(value, sort_keys=True, separators=(",", ":"),
ensure_ascii=False)`, byte for byte, written by orjson where orjson writes those very bytes (about 8x
faster: the fold writes every outcome with it). NaN and Infinity are no JSON: the API refuses them."""

from __future__ import annotations

import json
import math
import re
from json.encoder import encode_basestring
from typing import Any

import orjson

# what orjson would render otherwise than json.dumps (dataclasses, datetimes, str/int/dict subclasses such as
# enums) is handed to json.dumps instead, through the TypeError orjson raises for it
_FAST = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
_FAST |= orjson.OPT_PASSTHROUGH_SUBCLASS
# the in-browser verifier's stand-in (replay/in_browser/orjson.py)
_STAND_IN = getattr(orjson, "STAND_IN", False)


def canonical_json(value: Any) -> str:
    try:
        rendered = orjson.dumps(value, option=_FAST)
    except TypeError:  # orjson.JSONEncodeError: integers past 64 bits, lone surrogates, non-str keys
        return _json_dumps(value)
    # orjson writes floats below 1e-4 unlike json.dumps (1e-7 for 1e-07, 0.00001 for 1e-05); other floats,
    # exponents included, come out alike. Text that merely contains a mark only costs the slower path.
    if b"e-" in rendered or b"0.0000" in rendered:
        return _json_dumps(value)
    return rendered.decode()


def loads(text: str | bytes) -> Any:
    """Read back what `canonical_json` wrote, at orjson's speed (the fold decodes every stored entry)."""
    raw = text.encode() if isinstance(text, str) else text
    if _STAND_IN:  # the browser's loads (msgspec's) keeps every integer an int: no digit run to find
        return orjson.loads(raw)
    # orjson reads an integer past 64 bits as a float; json keeps it an int (a digit run in a string only
    # costs the slower path, which reads every value alike)
    return _json_loads(raw) if long_digit_run(raw) else orjson.loads(raw)


def _json_loads(raw: bytes) -> Any:
    """json.loads refusing what orjson refuses (a byte order mark, invalid UTF-8, an encoded or a lone escaped
    surrogate, NaN and Infinity, a number past a double), so no path reads a line orjson would not."""
    if raw.startswith(_BOM):
        raise json.JSONDecodeError("a UTF-8 byte order mark is no JSON", raw.decode("utf-8", "replace"), 0)
    text = raw.decode("utf-8")  # strict: invalid UTF-8 and encoded surrogates are a UnicodeDecodeError
    if b"\\u" in raw and _lone_surrogate(raw):
        raise json.JSONDecodeError("a lone surrogate escape", text, 0)
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
    raise json.JSONDecodeError(f"{name} is no JSON", name, 0)


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise json.JSONDecodeError("a number past a double", text, 0)
    return value


_BOM = b"\xef\xbb\xbf"
# a backslash escaped, or a \u escape: the walk over them finds a surrogate not in a pair
_ESCAPE = re.compile(rb"\\\\|\\u([0-9a-fA-F]{4})")
_DECODER = json.JSONDecoder(parse_constant=_refused, parse_float=_finite)  # one for every call


def long_digit_run(raw: bytes) -> bool:
    """Whether `raw` holds 19 ASCII digits in a row: every digit marked alike in one pass, then one substring
    search, both in C (a tenth of what the regex `[0-9]{19}` costs on a log line)."""
    return _LONG_RUN in raw.translate(_DIGITS_MARKED)


_DIGITS_MARKED = bytes(ord("0") if 0x30 <= byte <= 0x39 else ord(" ") for byte in range(256))
_LONG_RUN = b"0" * 19


def _json_dumps(value: Any) -> str:
    """`json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`, its C encoder made
    once (json.dumps builds one per call: 40 % of a small value's time in the browser)."""
    return "".join(_ENCODE(value, 0)) if _ENCODE is not None else _ENCODER.encode(value)


def _unserializable(value: Any) -> Any:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")  # json's words


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
# what JSONEncoder.iterencode hands the C encoder for those options, once; None where json has no C speedups
_MAKE = getattr(json.encoder, "c_make_encoder", None)  # not in typeshed: json's own private name
_ENCODE = (
    None
    if _MAKE is None
    else _MAKE(None, _unserializable, encode_basestring, None, ":", ",", True, False, True)
)
