"""How a log entry is laid out as Redis stream fields, and read back."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from eventstore.canonical import canonical_json, loads
from eventstore.records import NewEntry, StoredEntry

T = TypeVar("T")


def text(value: Any) -> str:
    """Replies are bytes or str depending on the client's decode_responses; the store accepts both."""
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def version_of(entry_id: Any) -> int:
    """Entry IDs are `0-<version>`."""
    return int(text(entry_id).rpartition("-")[2])


def to_fields(entry: NewEntry | StoredEntry, prev_hash: str, digest: str) -> list[str]:
    """Field/value pairs in a fixed order; `hash` comes last so the append script finds it first."""
    return [
        "type", entry.type,
        "data", canonical_json(entry.data),
        "schema_version", str(entry.schema_version),
        "actor", entry.actor,
        "idempotency_key", entry.idempotency_key or "",
        "recorded_at", entry.recorded_at,
        "dice", canonical_json(entry.dice),
        "prev_hash", prev_hash,
        "hash", digest,
    ]  # fmt: skip


def from_fields(entry_id: Any, raw: Mapping[Any, Any]) -> StoredEntry:
    if b"hash" in raw:
        return _from_bytes(entry_id, raw)
    fields = {text(k): text(v) for k, v in raw.items()}
    return StoredEntry(
        version=version_of(entry_id),
        type=fields["type"],
        data=_json(fields["data"]),
        schema_version=int(fields["schema_version"]),
        actor=fields["actor"],
        idempotency_key=fields["idempotency_key"] or None,
        recorded_at=fields["recorded_at"],
        dice=_json(fields["dice"]),
        prev_hash=fields["prev_hash"],
        hash=fields["hash"],
    )


def _slotted(kind: type[T]) -> Callable[..., T]:
    """`kind(**fields)` with each slot set by its own descriptor, as rules/frozen.py copies records: the
    frozen `__init__` goes through object.__setattr__ per field at twice the cost, and a fold builds every
    entry it reads."""
    fields = dataclasses.fields(kind)  # type: ignore[arg-type]  # StoredEntry, a dataclass
    if hasattr(kind, "__post_init__") or not all(f.init for f in fields):
        raise TypeError(f"{kind.__name__} needs its __init__: it derives fields")
    names = [f.name for f in fields]
    scope: dict[str, Any] = {"new": kind.__new__, "kind": kind}
    lines = [f"def make(*, {', '.join(names)}):", "    made = new(kind)"]
    for n, name in enumerate(names):
        scope[f"set{n}"] = getattr(kind, name).__set__
        lines.append(f"    set{n}(made, {name})")
    exec("\n".join([*lines, "    return made"]), scope)  # code built from the record's own field names only
    make: Callable[..., T] = scope["make"]
    return make


_stored_entry = _slotted(StoredEntry)


def _from_bytes(entry_id: bytes, raw: Mapping[bytes, bytes]) -> StoredEntry:
    """The store's own bytes replies, read by key: a fold decodes every entry, so no text() per value."""
    return _stored_entry(
        version=int(entry_id[entry_id.rindex(b"-") + 1 :]),
        type=raw[b"type"].decode(),
        data=_json(raw[b"data"]),
        schema_version=int(raw[b"schema_version"]),
        actor=raw[b"actor"].decode(),
        idempotency_key=raw[b"idempotency_key"].decode() or None,
        recorded_at=raw[b"recorded_at"].decode(),
        dice=_json(raw[b"dice"]),
        prev_hash=raw[b"prev_hash"].decode(),
        hash=raw[b"hash"].decode(),
    )


def _json(value: str | bytes) -> Any:
    # most commands carry no dice and many no fields: skip the parser for the empty object
    return {} if value in EMPTY_OBJECT else loads(value)


EMPTY_OBJECT = ("{}", b"{}")


Row = tuple[Any, Mapping[Any, Any]]  # (entry id, field -> value), as redis-py parses a stream's entry


def rows_of(reply: Sequence[Sequence[Any]]) -> list[Row]:
    """XRANGE's reply as the protocol gives it ([id, [field, value, ...]] each) made rows, as redis-py
    makes them for its own calls."""
    return [(entry_id, dict(zip(flat[::2], flat[1::2], strict=True))) for entry_id, flat in reply]


def from_rows(rows: Sequence[Row]) -> list[StoredEntry]:
    return [from_fields(entry_id, raw) for entry_id, raw in rows]
