"""One exported line: a log entry and its outcome as a CloudEvents 1.0 event in JSON (the maintained
`cloudevents` SDK writes and reads it), and back. No Flask, no Redis: `siege verify` reads files with it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cloudevents.core.formats.json import JSONFormat
from cloudevents.core.v1.event import CloudEvent

from eventstore.canonical import loads
from eventstore.records import StoredEntry

MEDIA_TYPE = "application/x-ndjson"  # JSON Lines: one event a line
TYPE_PREFIX = "siege.command."
DATA_CONTENT_TYPE = "application/json"
MAX_LINE_BYTES = 4 * 1024 * 1024  # a command body is capped far lower; a longer line is no export of ours
_FORMAT = JSONFormat()
# the stored entry's fields, with the JSON types a line must give them (`idempotency_key` may be null)
ENTRY_FIELDS: dict[str, type | tuple[type, ...]] = {
    "version": int,
    "type": str,
    "data": dict,
    "schema_version": int,
    "actor": str,
    "idempotency_key": (str, type(None)),
    "recorded_at": str,
    "dice": dict,
    "prev_hash": str,
    "hash": str,
}
# each member's JSON types, exactly: a parsed line holds no subclass, so one lookup per member is the check
_KINDS = tuple(
    (name, frozenset(kind if isinstance(kind, tuple) else (kind,))) for name, kind in ENTRY_FIELDS.items()
)
_ABSENT = object()


class Unusable(ValueError):
    """Input that cannot be verified at all (exit 2, or a 422 naming the line, 1-based)."""

    def __init__(self, reason: str, *, version: int | None = None, line: int) -> None:
        super().__init__(reason)
        self.reason, self.version, self.line = reason, version, line


@dataclass(frozen=True, slots=True, kw_only=True)
class Exported:
    """One line read back: its envelope and the entry and outcome it carries."""

    line: int
    id: str
    source: str
    type: str
    sequence: Any
    time: datetime | None
    entry: StoredEntry
    outcome: dict[str, Any] | None


def source_of(battle_id: str) -> str:
    return f"/battles/{battle_id}"


def event_line(source: str, entry: StoredEntry, outcome: str | None) -> bytes:
    """The line of one entry; `outcome` is the stored canonical JSON, or None while it is pending."""
    attributes: dict[str, Any] = {
        "specversion": "1.0",
        "id": entry.hash,
        "source": source,
        "type": TYPE_PREFIX + entry.type,
        "sequence": str(entry.version),  # the CloudEvents sequence extension is a string
        "datacontenttype": DATA_CONTENT_TYPE,
    }
    moment = _moment(entry.recorded_at)
    if moment is not None:  # the SDK takes only an aware datetime; `recorded_at` in data is the record
        attributes["time"] = moment
    data = {name: getattr(entry, name) for name in ENTRY_FIELDS}
    data["outcome"] = loads(outcome) if outcome is not None else None
    return _FORMAT.write(CloudEvent(attributes, data)) + b"\n"


def read_line(raw: bytes, line: int, expected: int, *, checked: bool = False) -> Exported:
    """Parse one line; Unusable when it is no CloudEvent carrying a log entry (`expected`: the version due,
    named in the reason). A line `checked` before (a second pass) is not handed to the SDK's validation
    again: it costs more than the rest of the line's reading."""
    try:
        attributes = loads(raw)
        if not isinstance(attributes, dict):
            raise ValueError("a JSON value other than an object")
        data = attributes.pop("data", None)
        if "time" in attributes:
            attributes["time"] = _moment(str(attributes["time"])) or attributes["time"]
        event = _Attributes(attributes) if checked else CloudEvent(attributes, data)
    except Exception as error:  # invalid JSON, missing or mistyped attributes: the SDK's many exceptions
        reason = f"line {line} is not a CloudEvents 1.0 JSON event ({_why(error)})"
        raise Unusable(reason, version=expected, line=line) from None
    entry, outcome = _carried(data, line, expected)
    return Exported(
        line=line,
        id=event.get_id(),
        source=event.get_source(),
        type=event.get_type(),
        sequence=event.get_extension("sequence"),
        time=event.get_time(),
        entry=entry,
        outcome=outcome,
    )


class _Attributes:
    """The getters of the SDK's event over attributes it validated on an earlier pass."""

    def __init__(self, attributes: dict[str, Any]) -> None:
        self._attributes = attributes

    def get_id(self) -> str:
        return str(self._attributes["id"])

    def get_source(self) -> str:
        return str(self._attributes["source"])

    def get_type(self) -> str:
        return str(self._attributes["type"])

    def get_extension(self, name: str) -> Any:
        return self._attributes.get(name)

    def get_time(self) -> datetime | None:
        found = self._attributes.get("time")
        return found if isinstance(found, datetime) else None


def _carried(data: Any, line: int, expected: int) -> tuple[StoredEntry, dict[str, Any] | None]:
    if not isinstance(data, dict):
        raise Unusable(f"line {line} carries no JSON object as its data", version=expected, line=line)
    for name, kinds in _KINDS:
        # a member left out is no null (`idempotency_key` may be null, never absent), and no bool an int
        if type(data.get(name, _ABSENT)) not in kinds:
            raise Unusable(f"line {line}: data.{name} is missing or mistyped", version=expected, line=line)
    outcome = data.get("outcome")
    if outcome is not None and not isinstance(outcome, dict):
        reason = f"line {line}: data.outcome is neither an object nor null"
        raise Unusable(reason, version=expected, line=line)
    return StoredEntry(**{name: data[name] for name in ENTRY_FIELDS}), outcome


def envelope_fault(event: Exported) -> str | None:
    """Why the event's attributes do not describe the entry it carries, or None when they do."""
    entry = event.entry
    if event.id != entry.hash:
        return "the event id is not the entry's hash"
    if event.sequence != str(entry.version):
        return "the event sequence is not the entry's version"
    if event.type != TYPE_PREFIX + entry.type:
        return "the event type is not the entry's command type"
    if event.time is None or event.time != _moment(entry.recorded_at):
        return "the event time is not the entry's recorded_at"
    return None


def _moment(recorded_at: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def _why(error: Exception) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text[:200]
