"""The hash chain as DESIGN §3.2 states it, so any party can verify a log offline."""

from __future__ import annotations

import dataclasses
import hashlib
import json

from eventstore.canonical import canonical_json
from eventstore.chain import GENESIS_HASH, entry_body, entry_hash, verify_chain
from eventstore.memory_store import MemoryEventStore
from eventstore.records import NewEntry, StoredEntry
from tests.eventstore.helpers import battle, command, created


def command_of(stored: StoredEntry) -> NewEntry:
    fields = {f.name: getattr(stored, f.name) for f in dataclasses.fields(NewEntry)}
    return NewEntry(**fields)


def chain(length: int) -> list[StoredEntry]:
    store = MemoryEventStore()
    battle(store, commands=length - 1)
    return list(store.iter_entries("b1"))


def documented_hash(version: int, entry: NewEntry, prev_hash: str) -> str:
    """DESIGN §3.2 written out by hand: sha256(prev_hash + canonical_json(entry without hash))."""
    body = {
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
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((prev_hash + canonical).encode("utf-8")).hexdigest()


def test_the_hash_is_sha256_of_prev_hash_and_the_canonical_entry_without_hash() -> None:
    entry = command(key="k", note="é")
    assert entry_hash(2, entry, "f" * 64) == documented_hash(2, entry, "f" * 64)


def test_an_entry_without_idempotency_key_hashes_it_as_null() -> None:
    assert entry_hash(1, created(), GENESIS_HASH) == documented_hash(1, created(), GENESIS_HASH)
    assert '"idempotency_key":null' in canonical_json(entry_body(1, created(), GENESIS_HASH))


def test_every_stored_hash_follows_the_documented_formula() -> None:
    entries = chain(4)
    assert all(e.hash == documented_hash(e.version, command_of(e), e.prev_hash) for e in entries)


def test_an_intact_chain_verifies_from_genesis() -> None:
    entries = chain(6)
    check = verify_chain(entries)
    assert check.ok and check.checked == 6 and check.head_version == 6 and check.head_hash == entries[-1].hash
    assert entries[0].prev_hash == GENESIS_HASH


def test_an_empty_log_is_a_valid_chain_at_genesis() -> None:
    check = verify_chain([])
    assert check.ok and (check.checked, check.head_version, check.head_hash) == (0, 0, GENESIS_HASH)


def test_verification_resumes_from_a_known_head() -> None:
    entries = chain(6)
    check = verify_chain(entries[3:], prev_version=3, prev_hash=entries[2].hash)
    assert check.ok and check.checked == 3


def test_a_missing_entry_is_a_version_gap() -> None:
    entries = chain(6)
    check = verify_chain(entries[:2] + entries[3:])
    assert (check.broken_at, check.reason, check.head_version) == (4, "version_gap", 2)


def test_a_relinked_entry_is_a_prev_hash_mismatch() -> None:
    entries = chain(4)
    entries[2] = dataclasses.replace(entries[2], prev_hash="0" * 64)
    assert (verify_chain(entries).broken_at, verify_chain(entries).reason) == (3, "prev_hash_mismatch")


def test_a_forged_entry_with_its_hash_recomputed_breaks_the_next_link() -> None:
    entries = chain(4)
    forged = dataclasses.replace(entries[1], actor="mallory")
    entries[1] = dataclasses.replace(forged, hash=entry_hash(2, forged, forged.prev_hash))
    check = verify_chain(entries)
    assert (check.broken_at, check.reason) == (3, "prev_hash_mismatch")
