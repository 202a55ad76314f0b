"""A stand-in for orjson in the browser, where orjson cannot be had (no build of it for Pyodide in the
registries the runtime comes from): the zip ships it as the top-level `orjson`, so eventstore.canonical runs
unchanged. It reads and writes with msgspec, a compiled library whose WebAssembly wheel the runtime carries
(service/verify_files/pyodide.json): json's own C code runs two to three times slower in the browser.

`loads` is msgspec's reader: it refuses what orjson refuses (NaN and Infinity, a number past a double, a byte
order mark, a lone surrogate, invalid UTF-8) and keeps an integer past 64 bits an int, as `canonical.loads`
does on the server; only the parser's own words in an unreadable line's reason may differ (and a line nested
past the interpreter's recursion limit, about 1,000 levels, which orjson reads to 1,024). `dumps` is orjson's
contract as eventstore.canonical uses it: the bytes orjson would write (sorted keys, compact, UTF-8 kept;
small floats such as 0.00001, which canonical_json checks for itself), or orjson's TypeError, which sends
canonical_json to json.dumps: a float msgspec writes with an exponent where orjson does not (1e16 for 1e+16),
a lone surrogate, a key that is not a str, a subclass of str, int or float, a value nested too deep. msgspec
also writes what json.dumps refuses (sets, bytes, dataclasses, datetimes, plain enums); the verifier gives
canonical_json only parsed JSON and the rules' wire forms, which hold none of them."""

from __future__ import annotations

import json
from typing import Any

import msgspec

STAND_IN = True  # eventstore.canonical: this reader keeps every integer an int, no digit run to look for
OPT_SORT_KEYS = 1 << 5
OPT_PASSTHROUGH_DATACLASS = 1 << 11
OPT_PASSTHROUGH_DATETIME = 1 << 9
OPT_PASSTHROUGH_SUBCLASS = 1 << 8
_DECODER = msgspec.json.Decoder()
_ENCODER = msgspec.json.Encoder(order="sorted")
_NUMBER_BYTES = b"0123456789.-"  # deleted, a number written with an exponent leaves its `e` after : , or [
_EXPONENT_MARKS = (b":e", b",e", b"[e")


class JSONEncodeError(TypeError):
    pass


class JSONDecodeError(json.JSONDecodeError):
    pass


def dumps(value: Any, option: int | None = None) -> bytes:
    """orjson's bytes for the only options eventstore.canonical passes, or JSONEncodeError."""
    try:
        rendered = _ENCODER.encode(value)
    except (TypeError, ValueError, RecursionError) as error:  # ValueError: a lone surrogate's encoding
        raise JSONEncodeError(str(error)) from error
    if isinstance(value, float) or _exponent(rendered):
        raise JSONEncodeError("msgspec writes a float's exponent unlike json.dumps")
    return rendered


def _exponent(rendered: bytes) -> bool:
    """Whether a number may be written with an exponent: one pass deleting digits, points and minus signs,
    then three substring searches, all in C. A string holding such a mark (":3e") only costs json.dumps."""
    bare = rendered.translate(None, _NUMBER_BYTES)
    return any(mark in bare for mark in _EXPONENT_MARKS)


def loads(raw: bytes | bytearray | memoryview | str) -> Any:
    try:
        return _DECODER.decode(raw)
    except msgspec.DecodeError as error:
        text = bytes(raw).decode("utf-8", "replace") if not isinstance(raw, str) else raw
        raise JSONDecodeError(str(error), text, 0) from error
