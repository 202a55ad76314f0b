"""The battles' keys held in process memory, mirroring the Redis layout (log, idempotency, derived), and
the one lock every role of the in-process store holds around them."""

from __future__ import annotations

import bisect
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from eventstore.canonical import canonical_json
from eventstore.chain import GENESIS_HASH, entry_hash
from eventstore.errors import IdempotencyInFlight, IdempotencyMismatch, UnknownBattle, VersionConflict
from eventstore.records import (
    BATTLE_OWNER,
    Appended,
    AppendRequest,
    Budget,
    Head,
    NewEntry,
    Projection,
    Spent,
    StoredEntry,
)


@dataclass(slots=True)
class IdemRecord:
    """Times are wall-clock seconds, as Redis's TIME is."""

    fingerprint: str
    version: int
    hash: str
    expires: float
    lease_until: float | None
    response: str | None = None

    def answer(self, fingerprint: str, now: float) -> Appended:
        if self.fingerprint != fingerprint:
            raise IdempotencyMismatch(self.version)
        if self.response is None and self.lease_until is not None and self.lease_until > now:
            raise IdempotencyInFlight(self.version)
        return Appended(version=self.version, hash=self.hash, replayed=True, response=self.response)


@dataclass(slots=True)
class MemoryBattle:
    """Not thread-safe on its own: the store holds its lock around every call."""

    secret: str
    log: list[StoredEntry] = field(default_factory=list)
    idem: dict[str, IdemRecord] = field(default_factory=dict)
    outcomes: list[tuple[int, str]] = field(default_factory=list)
    state: Projection | None = None
    snapshots: dict[int, str] = field(default_factory=dict)
    snapshot_versions: list[int] = field(default_factory=list)
    rates: dict[tuple[str, int], tuple[int, float]] = field(default_factory=dict)  # → (used, window end)

    def spend(self, budget: Budget) -> Spent:
        """As eventstore/lua/rate.lua counts: every window hit, the tightest one answered."""
        now, tightest = time.time(), None
        for owner, window in budget.counted():
            used, ends = self.rates.get((owner, window.seconds), (0, 0.0))
            if ends <= now:
                used, ends = 0, now + window.seconds
            self.rates[(owner, window.seconds)] = (used + 1, ends)
            left, shared = window.amount - used - 1, owner == BATTLE_OWNER
            spent = Spent(window=window, left=left, reset_s=ends - now, shared=shared)
            if tightest is None or spent.left < tightest.left:
                tightest = spent
        assert tightest is not None, "a budget has at least one window"
        return tightest

    @property
    def head(self) -> Head:
        last = self.log[-1] if self.log else None
        return Head(version=last.version, hash=last.hash) if last else Head(version=0, hash=GENESIS_HASH)

    def append(self, request: AppendRequest) -> Appended:
        entry, fingerprint = request.entry, request.fingerprint or ""
        key, now = entry.idempotency_key, time.time()
        seen = self.idem.get(key) if key else None
        if seen is not None and seen.expires > now:  # an expired record is as good as none
            return seen.answer(fingerprint, now)
        head = self.head
        if request.expected_version is not None and request.expected_version != head.version:
            raise VersionConflict(head.version)
        stored = _stored(head.version + 1, entry, head.hash)
        self.log.append(stored)
        if key:
            self.idem = {k: r for k, r in self.idem.items() if r.expires > now}
            self.idem[key] = IdemRecord(
                fingerprint=fingerprint,
                version=stored.version,
                hash=stored.hash,
                expires=now + request.retain_s,
                lease_until=now + request.lease_s,
            )
        return Appended(version=stored.version, hash=stored.hash)

    def record_response(self, key: str, version: int, response: str) -> bool:
        seen = self.idem.get(key)
        if seen is None or seen.version != version:
            return False
        seen.response, seen.lease_until = response, None
        return True

    def save(self, state: Projection, outcomes: list[tuple[int, str]], snapshots: list[Projection]) -> bool:
        stored = self.state.version if self.state else 0
        if state.version <= stored or (outcomes and outcomes[0][0] != stored + 1):
            return False
        if outcomes and self.outcomes and self.outcomes[-1][0] > stored:
            return False
        self.outcomes.extend(outcomes)
        self.state = state
        for snapshot in snapshots:
            if snapshot.version not in self.snapshots:
                bisect.insort(self.snapshot_versions, snapshot.version)
            self.snapshots[snapshot.version] = snapshot.state
        return True

    def outcome(self, version: int) -> str | None:
        index = bisect.bisect_left(self.outcomes, version, key=lambda pair: pair[0])
        found = self.outcomes[index] if index < len(self.outcomes) else None
        return found[1] if found and found[0] == version else None

    def snapshot_at_or_before(self, version: int) -> Projection | None:
        index = bisect.bisect_right(self.snapshot_versions, version)
        if index == 0:
            return None
        found = self.snapshot_versions[index - 1]
        return Projection(version=found, state=self.snapshots[found])

    def delete_derived(self) -> None:
        self.outcomes, self.state = [], None
        self.snapshots, self.snapshot_versions = {}, []


class MemoryKeys:
    """Every battle's keys and the one lock around them (a condition: a wait for outcomes waits on it), as
    one Redis server holds every role's keys: each role of the store (eventstore/memory_*.py) reads and
    writes them under it."""

    def __init__(self) -> None:
        self._battles: dict[str, MemoryBattle] = {}
        self._changed = threading.Condition()

    def _battle(self, battle_id: str) -> MemoryBattle:
        """The battle's keys, for a caller holding the lock; UnknownBattle when there is no such battle."""
        battle = self._battles.get(battle_id)
        if battle is None:
            raise UnknownBattle(battle_id)
        return battle


def _stored(version: int, entry: NewEntry, prev_hash: str) -> StoredEntry:
    return StoredEntry(
        version=version,
        type=entry.type,
        data=_copied(entry.data),
        schema_version=entry.schema_version,
        actor=entry.actor,
        idempotency_key=entry.idempotency_key,
        recorded_at=entry.recorded_at,
        dice=_copied(entry.dice),
        prev_hash=prev_hash,
        hash=entry_hash(version, entry, prev_hash),
    )


def _copied(value: dict[str, Any]) -> dict[str, Any]:
    """A JSON round trip, as Redis does: later changes to the caller's dict cannot reach the log."""
    copied: dict[str, Any] = json.loads(canonical_json(value))
    return copied
