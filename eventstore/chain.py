"""The hash chain over a battle's log: entry hashes and chain verification."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from eventstore.canonical import canonical_json
from eventstore.errors import BrokenHistory
from eventstore.records import NewEntry, StoredEntry

GENESIS_HASH = "0" * 64  # the link version 1 hashes against: a chain starts from nothing


def entry_body(version: int, entry: NewEntry | StoredEntry, prev_hash: str) -> dict[str, Any]:
    """The hashed object: every field of the entry except `hash` itself."""
    return {
        "version": version,
        "type": entry.type,
        "data": entry.data,
        "schema_version": entry.schema_version,
        "actor": entry.actor,
        "idempotency_key": entry.idempotency_key,
        "recorded_at": entry.recorded_at,
        "dice": entry.dice,
        "prev_hash": prev_hash,
    }


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def entry_hash(version: int, entry: NewEntry | StoredEntry, prev_hash: str) -> str:
    return sha256_hex(prev_hash + canonical_json(entry_body(version, entry, prev_hash)))


@dataclass(frozen=True, slots=True, kw_only=True)
class ChainCheck:
    """What `verify_chain` found: `broken_at` is the first bad version (None when the chain holds)."""

    checked: int
    head_version: int
    head_hash: str
    broken_at: int | None = None
    reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.broken_at is None


def verify_chain(
    entries: Iterable[StoredEntry], *, prev_version: int = 0, prev_hash: str = GENESIS_HASH
) -> ChainCheck:
    """Walk entries in order (streamed) checking versions, links and hashes; resumable from a known head."""
    checked = 0
    for stored in entries:
        reason = fault(stored, prev_version, prev_hash)
        if reason is not None:
            return ChainCheck(
                checked=checked,
                head_version=prev_version,
                head_hash=prev_hash,
                broken_at=stored.version,
                reason=reason,
            )
        checked += 1
        prev_version, prev_hash = stored.version, stored.hash
    return ChainCheck(checked=checked, head_version=prev_version, head_hash=prev_hash)


def fault(stored: StoredEntry, prev_version: int, prev_hash: str) -> str | None:
    """Why `stored` cannot follow the entry (`prev_version`, `prev_hash`), or None when it links on."""
    if stored.version != prev_version + 1:
        return "version_gap"
    if stored.prev_hash != prev_hash:
        return "prev_hash_mismatch"
    if stored.hash != entry_hash(stored.version, stored, prev_hash):
        return "hash_mismatch"
    return None


def linked(entries: Iterable[StoredEntry]) -> Iterator[StoredEntry]:
    """The entries, streamed, as long as they chain from the genesis link; BrokenHistory at the first that
    does not, or when there is none at all (an imported history must be whole)."""
    prev_version, prev_hash = 0, GENESIS_HASH
    for stored in entries:
        reason = fault(stored, prev_version, prev_hash)
        if reason is not None:
            raise BrokenHistory(stored.version, reason)
        yield stored
        prev_version, prev_hash = stored.version, stored.hash
    if prev_version == 0:
        raise BrokenHistory(1, "no entries")
