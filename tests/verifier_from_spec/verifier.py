"""A verifier of battle exports written from docs/export-format.md alone, with the standard library only:
the chain (§4), the dice commitment and every stream die (§5), in the order of checks of §7. It has no
rules, so it cannot see an `outcome` finding nor judge the ruleset and rules version (§7.4). Each finding
names the line of the file it is about (§7.3).

    python -m tests.verifier_from_spec.verifier FILE    # exit 0 verified, 1 tampered, 2 unusable"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

GENESIS = "0" * 64
TYPE_PREFIX = "siege.command."
MAX_FACES = 256  # §5.3: past it the limit is 0 and no byte is ever accepted
# §3: the entry's fields and their JSON types (JSON true/false are no integers)
FIELDS: dict[str, tuple[type, ...]] = {
    "version": (int,),
    "type": (str,),
    "data": (dict,),
    "schema_version": (int,),
    "actor": (str,),
    "idempotency_key": (str, type(None)),
    "recorded_at": (str,),
    "dice": (dict,),
    "prev_hash": (str,),
    "hash": (str,),
}
KNOWN_ATTRIBUTES = {"specversion", "id", "source", "type", "datacontenttype", "dataschema", "subject", "time"}
EXTENSION_NAME = re.compile(r"[a-z0-9]+")
DIE = re.compile(r"d([0-9]+)")
Kind = Literal["chain", "dice", "missing", "order", "duplicate", "unusable"]
Status = Literal["verified", "tampered", "unusable"]


@dataclass(frozen=True, slots=True)
class Finding:
    kind: Kind
    version: int
    reason: str
    line: int  # 1-based, the line of §7.3


@dataclass(frozen=True, slots=True)
class Report:
    status: Status
    finding: Finding | None
    entries: int  # versions accepted by the chain, 1..entries
    head_hash: str
    dice_verifiable: bool  # a conclusion revealed the committed seed
    checked_rolls: int


class _Unusable(Exception):
    def __init__(self, reason: str, version: int, line: int) -> None:
        super().__init__(reason)
        self.reason, self.version, self.line = reason, version, line


class _Unreadable(Exception):
    """A line that is no event of §2, §3; the pass reading it makes it `_Unusable` at its version and line."""


# --- §4.1 canonical JSON -------------------------------------------------------------------------------

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_TO_ESCAPE = re.compile(r'["\\\x00-\x1f\ud800-\udfff]')


def canonical(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return canonical_float(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ",".join(canonical(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(_string(k) + ":" + canonical(value[k]) for k in sorted(value)) + "}"
    raise TypeError(f"no JSON value: {type(value).__name__}")


def _string(text: str) -> str:
    return '"' + _TO_ESCAPE.sub(_escape, text) + '"'


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    if "\ud800" <= char <= "\udfff":
        raise ValueError("a lone surrogate has no UTF-8 encoding")
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def canonical_float(number: float) -> str:
    """The shortest digits that read back to the same double (the nearest of them if several), laid out as
    §4.1 says. Near a power of two the correctly rounded k digits may not read back while a neighbour does."""
    if math.isnan(number) or math.isinf(number):
        raise ValueError("NaN and the infinities are no JSON")
    if number == 0:
        return "-0.0" if math.copysign(1.0, number) < 0 else "0.0"
    sign, size = ("-" if number < 0 else ""), abs(number)
    digits, power = _shortest(size)
    point = power + len(digits)  # the value is 0.digits × 10^point
    if -4 < point <= 16:
        if point <= 0:
            return f"{sign}0.{'0' * -point}{digits}"
        if point >= len(digits):
            return f"{sign}{digits}{'0' * (point - len(digits))}.0"
        return f"{sign}{digits[:point]}.{digits[point:]}"
    fraction = f".{digits[1:]}" if len(digits) > 1 else ""
    exponent = point - 1
    return f"{sign}{digits[0]}{fraction}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"


def _shortest(size: float) -> tuple[str, int]:
    """(digits, power) with size == float(digits × 10^power): the fewest digits, the nearest if several, the
    even one of two as near."""
    exact = Decimal(size)
    for count in range(1, 18):
        mantissa, exponent = f"{size:.{count - 1}e}".split("e")
        rounded, power = int(mantissa.replace(".", "")), int(exponent) - count + 1
        fits = [m for m in range(max(rounded - 2, 1), rounded + 3) if float(f"{m}e{power}") == size]
        fits = [m for m in fits if len(str(m)) == count]
        if fits:
            best = min(fits, key=lambda m: (abs(Decimal(f"{m}e{power}") - exact), m % 2))  # a tie: even
            return str(best), power
    raise AssertionError("17 significant digits always read back")


# --- §4.2 the entry hash, §5 dice ----------------------------------------------------------------------


def entry_hash(data: dict[str, Any], prev_hash: str) -> str:
    body = {name: data[name] for name in FIELDS if name != "hash"}
    body["prev_hash"] = prev_hash
    return hashlib.sha256(prev_hash.encode() + canonical(body).encode()).hexdigest()


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def stream_key(seed: bytes, client_seed: str) -> bytes:
    return hashlib.sha256(seed + client_seed.encode()).digest()


def stream_die(key: bytes, version: int, n: int, faces: int) -> int:
    if not 1 <= faces <= MAX_FACES:
        raise ValueError(f"no stream die has {faces} faces")
    limit = 256 - 256 % faces
    counter = 0
    while True:
        message = f"{version}:{n}" if counter == 0 else f"{version}:{n}:{counter}"
        for byte in hmac.new(key, message.encode("ascii"), hashlib.sha256).digest():
            if byte < limit:
                return byte % faces + 1
        counter += 1


def expected_die(key: bytes, version: int, n: int, die: Any) -> int | None:
    """None when the recorded die names no 1..256 faces: then no value is the seed's."""
    found = DIE.fullmatch(die) if isinstance(die, str) else None
    if found is None or not 1 <= int(found.group(1)) <= MAX_FACES:
        return None
    return stream_die(key, version, n, int(found.group(1)))


def stream_rolls(outcome: dict[str, Any]) -> list[dict[str, Any]]:
    rolls = outcome.get("rolls")
    if not isinstance(rolls, list):
        return []
    return [roll for roll in rolls if isinstance(roll, dict) and roll.get("source") == "stream"]


# --- §2, §3 reading a line -----------------------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise _Unreadable(f"{name} is no JSON number")


def _finite(text: str) -> float:
    number = float(text)
    if math.isinf(number):
        raise _Unreadable(f"{text} does not fit a double")
    return number


def read_event(raw: bytes) -> dict[str, Any]:
    """The line's event, its shape checked (§2, §3); _Unreadable when it is none."""
    try:
        event = json.loads(raw.decode("utf-8"), parse_constant=_no_constant, parse_float=_finite)
    except (UnicodeDecodeError, ValueError) as error:
        raise _Unreadable(f"not JSON ({error})") from None
    if not isinstance(event, dict):
        raise _Unreadable("not a JSON object")
    _check_strings(event)
    if event.get("specversion") != "1.0":
        raise _Unreadable("specversion is not 1.0")
    for name in ("id", "source", "type"):
        if not isinstance(event.get(name), str) or not event[name]:
            raise _Unreadable(f"{name} is not a non-empty string")
    for name in ("datacontenttype", "dataschema", "subject"):
        if name in event and (not isinstance(event[name], str) or not event[name]):
            raise _Unreadable(f"{name} is not a non-empty string")
    for name in event:
        if name not in KNOWN_ATTRIBUTES and name != "data" and not EXTENSION_NAME.fullmatch(name):
            raise _Unreadable(f"{name!r} is no extension attribute name")
    if "time" in event and moment(event["time"]) is None:
        raise _Unreadable("time is not a date-time with a UTC offset")
    data = event.get("data")
    if not isinstance(data, dict):
        raise _Unreadable("data is not an object")
    for name, kinds in FIELDS.items():
        if name not in data or not isinstance(data[name], kinds) or isinstance(data[name], bool):
            raise _Unreadable(f"data.{name} is missing or mistyped")
    if data.get("outcome") is not None and not isinstance(data["outcome"], dict):
        raise _Unreadable("data.outcome is neither an object nor null")
    return event


def _check_strings(value: Any) -> None:
    """§4.1: no lone surrogate anywhere (it could not be hashed)."""
    if isinstance(value, str):
        if any("\ud800" <= char <= "\udfff" for char in value):
            raise _Unreadable("a string holds a lone surrogate")
    elif isinstance(value, list):
        for item in value:
            _check_strings(item)
    elif isinstance(value, dict):
        for name, item in value.items():
            _check_strings(name)
            _check_strings(item)


def moment(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def _link_fault(event: dict[str, Any], source: str, prev_hash: str) -> str | None:
    """§7.1 step 6, in its order."""
    data = event["data"]
    if event["source"] != source:
        return f"the event belongs to another battle ({event['source']})"
    if data["prev_hash"] != prev_hash:
        return "prev_hash is not the hash of the version before"
    if data["hash"] != entry_hash(data, prev_hash):
        return "the entry's hash is not the hash of its content"
    if event["id"] != data["hash"]:
        return "the event id is not the entry's hash"
    if event.get("sequence") != str(data["version"]):
        return "the event sequence is not the entry's version"
    if event["type"] != TYPE_PREFIX + data["type"]:
        return "the event type is not the entry's command type"
    recorded = moment(data["recorded_at"])
    if "time" not in event or recorded is None or moment(event["time"]) != recorded:
        return "the event time is not the entry's recorded_at"
    return None


# --- §7 the checks -------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Walk:
    """What the first pass keeps: the head, the creation's commitment and seed, the reveal, stream rolls."""

    prev: int = 0
    prev_hash: str = GENESIS
    source: str | None = None
    gap: int | None = None
    gap_line: int = 0  # the line where version gap was due
    pending: int | None = None
    pending_line: int = 0
    committed: str = ""
    client_seed: str = ""
    reveal: tuple[int, int, Any] | None = None  # the conclusion's version, line and server_seed as written
    rolls: list[tuple[int, int, list[dict[str, Any]]]] = field(default_factory=list)  # version, line, rolls


def verify_lines(lines: Iterable[bytes]) -> Report:
    walk = _Walk()
    try:
        finding = _first_pass(lines, walk)
    except _Unusable as error:
        finding = Finding("unusable", error.version, error.reason, error.line)
    seed = _revealed_seed(walk) if finding is None else None
    checked = 0
    if finding is None and walk.reveal is not None and seed is None:
        reason = "the seed the conclusion reveals does not match the dice_commitment of version 1"
        finding = Finding("dice", walk.reveal[0], reason, walk.reveal[1])
    elif finding is None and seed is not None:
        finding, checked = _check_dice(walk, stream_key(seed, walk.client_seed))
    status: Status = "verified" if finding is None else "tampered"
    if finding is not None and finding.kind == "unusable":
        status = "unusable"
    return Report(status, finding, walk.prev, walk.prev_hash, seed is not None, checked)


def verify_file(path: Path) -> Report:
    with path.open("rb") as handle:
        return verify_lines(handle)


def _first_pass(lines: Iterable[bytes], walk: _Walk) -> Finding | None:
    for number, raw in enumerate(lines, 1):
        try:
            event = read_event(raw)
        except _Unreadable as error:
            raise _Unusable(f"line {number}: {error}", walk.prev + 1, number) from None
        data = event["data"]
        version: int = data["version"]
        if walk.gap is not None:
            if version == walk.gap:
                return Finding("order", walk.gap, f"version {walk.gap} comes after later versions", number)
            continue
        if version <= walk.prev:
            return Finding("duplicate", version, f"version {version} appears twice", number)
        if version > walk.prev + 1:
            walk.gap, walk.gap_line = walk.prev + 1, number  # due here, where a later version stands
            continue
        walk.source = walk.source or event["source"]
        fault = _link_fault(event, walk.source, walk.prev_hash)
        if fault is not None:
            return Finding("chain", version, fault, number)
        if version == 1:
            _created(data, number, walk)
        outcome = data.get("outcome")
        if outcome is None:
            if walk.pending is None:
                walk.pending, walk.pending_line = version, number
        elif walk.pending is not None:
            reason = f"version {walk.pending} has no outcome, yet later versions do"
            return Finding("missing", walk.pending, reason, walk.pending_line)  # the pending one's line
        else:
            _outcome_seen(version, number, data["type"], outcome, walk)
        walk.prev, walk.prev_hash = version, data["hash"]
    if walk.gap is not None:
        return Finding("missing", walk.gap, f"version {walk.gap} is missing", walk.gap_line)
    if walk.prev == 0:
        raise _Unusable("the file holds no events", 1, 1)  # version 1 was due on line 1
    return None


def _created(data: dict[str, Any], number: int, walk: _Walk) -> None:
    if data["type"] != "battle_created":
        raise _Unusable("version 1 is not battle_created", 1, number)
    created = data["data"]
    committed, client_seed = created.get("dice_commitment"), created.get("client_seed") or ""
    walk.committed = committed if isinstance(committed, str) else ""
    if not isinstance(client_seed, str):  # §5.2: the service writes a string, or nothing
        raise _Unusable("the client_seed of version 1 is not a string", 1, number)
    walk.client_seed = client_seed


def _outcome_seen(version: int, line: int, command: str, outcome: dict[str, Any], walk: _Walk) -> None:
    if walk.reveal is None and command == "conclude" and outcome.get("status") == "applied":
        result = outcome.get("result")
        walk.reveal = (version, line, result.get("server_seed") if isinstance(result, dict) else None)
    walk.rolls.append((version, line, stream_rolls(outcome)))


def _revealed_seed(walk: _Walk) -> bytes | None:
    """The revealed seed when it is hex and matches the commitment (§5.1), else None."""
    if walk.reveal is None or not isinstance(walk.reveal[2], str):
        return None
    try:
        seed = bytes.fromhex(walk.reveal[2])
    except ValueError:
        return None
    return seed if seed and commitment(seed) == walk.committed else None


def _check_dice(walk: _Walk, key: bytes) -> tuple[Finding | None, int]:
    checked = 0
    for version, line, rolls in walk.rolls:
        for n, roll in enumerate(rolls):
            checked += 1
            value, expected = roll.get("value"), expected_die(key, version, n, roll.get("die"))
            if expected is None or not isinstance(value, int) or isinstance(value, bool) or value != expected:
                which = f"stream die {n} ({roll.get('slot')}, {roll.get('die')})"
                reason = f"{which} is {value!r}; the seed gives {expected}"
                return Finding("dice", version, reason, line), checked
    return None, checked


def main(argv: list[str]) -> int:
    report = verify_file(Path(argv[1]))
    found = report.finding
    if found is None:
        dice = f"{report.checked_rolls} stream dice" if report.dice_verifiable else "dice not verifiable yet"
        print(f"verified: {report.entries} entries, head {report.head_hash}, {dice} (outcomes not judged)")
        return 0
    print(f"{report.status}: version {found.version} (line {found.line}): {found.kind}: {found.reason}")
    return 2 if report.status == "unusable" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
