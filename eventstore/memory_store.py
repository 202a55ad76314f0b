"""The in-process event store: same contract as Redis, for fast tests and the contract suite."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from eventstore import one_by_one
from eventstore.chain import linked
from eventstore.errors import BattleExists, CountedRefusal, RateLimited, TokenRefused, UnknownBattle
from eventstore.memory_log import MemoryBattle
from eventstore.memory_schedule import MemorySchedule
from eventstore.memory_tickets import MemoryTickets
from eventstore.memory_tokens import MemoryTokens
from eventstore.memory_webhooks import MemoryWebhooks
from eventstore.protocol import SCHEDULED_TTL_S, EventStore, require_consecutive
from eventstore.records import (
    Appended,
    AppendRequest,
    Budget,
    FoldSave,
    FoldStart,
    Head,
    HeadRegression,
    ImportRequest,
    NewEntry,
    Projection,
    Spent,
    StoredEntry,
    TokenRecord,
)


class MemoryEventStore(MemorySchedule, MemoryTokens, MemoryWebhooks, MemoryTickets):
    """One lock guards the battles; a condition on it wakes `wait_outcome` when projections land."""

    def __init__(self, *, scheduled_ttl_s: float = SCHEDULED_TTL_S) -> None:
        MemorySchedule.__init__(self, scheduled_ttl_s=scheduled_ttl_s)
        MemoryTokens.__init__(self)
        MemoryWebhooks.__init__(self)
        MemoryTickets.__init__(self)
        self._battles: dict[str, MemoryBattle] = {}
        self._changed = threading.Condition()
        self._interrupted = False  # interrupt_follow was called: the next follow_outcomes returns

    def _battle(self, battle_id: str) -> MemoryBattle:
        battle = self._battles.get(battle_id)
        if battle is None:
            raise UnknownBattle(battle_id)
        return battle

    def create_battle(
        self, battle_id: str, created: NewEntry, server_seed: str, *, token: TokenRecord | None = None
    ) -> Appended:
        with self._changed:
            if battle_id in self._battles:
                raise BattleExists(battle_id)
            battle = MemoryBattle(secret=server_seed)
            # no key is recorded for version 1, as create.lua records none
            appended = battle.append(AppendRequest(battle_id=battle_id, entry=created, retain_s=0.0))
            self._battles[battle_id] = battle
        if token is not None:
            self.add_token(battle_id, token)
        return appended

    def import_battle(self, request: ImportRequest) -> Head:
        battle_id, token = request.battle_id, request.token
        # checked whole before anything is kept, as Redis leaves nothing behind
        log = list(linked(request.entries))
        with self._changed:
            if battle_id in self._battles:
                raise BattleExists(battle_id)
            self._battles[battle_id] = MemoryBattle(secret=request.server_seed, log=log)
        if token is not None:
            self.add_token(battle_id, token)
        return Head(version=log[-1].version, hash=log[-1].hash)

    def append(self, request: AppendRequest) -> Appended:
        battle_id, token_digest, budget = request.battle_id, request.token_digest, request.budget
        with self._changed:
            battle = self._battle(battle_id)
            held = self.token(battle_id, token_digest) if token_digest is not None else None
            if token_digest is not None and (held is None or held.revoked):
                raise TokenRefused(battle_id)
            spent = battle.spend(budget) if budget else None
            if spent is not None and spent.breached:
                raise RateLimited(spent)
            try:
                appended = battle.append(request)
            except CountedRefusal as refused:
                refused.spent = spent
                raise
        appended = dataclasses.replace(appended, spent=spent)
        if request.mark_pending and not appended.replayed:
            return dataclasses.replace(appended, enqueue=self.mark_pending(battle_id))
        return appended

    def spend(self, battle_id: str, budget: Budget) -> Spent:
        with self._changed:
            return self._battle(battle_id).spend(budget)

    def record_response(self, battle_id: str, key: str, version: int, response: str) -> bool:
        with self._changed:
            battle = self._battles.get(battle_id)
            return battle is not None and battle.record_response(key, version, response)

    def head(self, battle_id: str) -> Head:
        with self._changed:
            return self._battle(battle_id).head

    def read(self, battle_id: str, *, after: int = 0, limit: int = 100) -> list[StoredEntry]:
        with self._changed:
            return self._battle(battle_id).log[max(after, 0) : max(after, 0) + max(limit, 0)]

    def entry(self, battle_id: str, version: int) -> StoredEntry | None:
        with self._changed:
            log = self._battles[battle_id].log if battle_id in self._battles else []
            return log[version - 1] if 1 <= version <= len(log) else None

    def iter_entries(
        self, battle_id: str, *, after: int = 0, upto: int | None = None, batch: int = 1000
    ) -> Iterator[StoredEntry]:
        while upto is None or after < upto:
            entries = self.read(
                battle_id, after=after, limit=batch if upto is None else min(batch, upto - after)
            )
            yield from entries
            if len(entries) < batch:
                return
            after = entries[-1].version

    def secret(self, battle_id: str) -> str:
        with self._changed:
            return self._battle(battle_id).secret

    def head_regressions(self, battle_id: str) -> list[HeadRegression]:
        with self._changed:
            self._battle(battle_id)
            return []  # a process's own memory cannot lose what it acknowledged

    def battle_ids(self) -> Iterator[str]:
        with self._changed:
            ids = list(self._battles)
        yield from ids

    def projection(self, battle_id: str) -> Projection | None:
        with self._changed:
            battle = self._battles.get(battle_id)
            return battle.state if battle else None

    def projected_version(self, battle_id: str) -> int:
        saved = self.projection(battle_id)
        return saved.version if saved else 0

    def save_projection(
        self,
        battle_id: str,
        *,
        state: Projection,
        outcomes: Sequence[tuple[int, str]],
        snapshots: Sequence[Projection] = (),
    ) -> bool:
        require_consecutive(outcomes)
        with self._changed:
            saved = self._battle(battle_id).save(state, list(outcomes), list(snapshots))
            self._changed.notify_all()
            return saved

    def begin_folds(
        self, battle_ids: Sequence[str], owner: str, ttl_ms: int, *, limit: int
    ) -> list[FoldStart | None]:
        return one_by_one.begin_folds(self, battle_ids, owner, ttl_ms, limit=limit)

    def finish_folds(self, owner: str, folds: Sequence[tuple[str, FoldSave | None]]) -> list[bool]:
        return one_by_one.finish_folds(self, owner, folds)

    def mark_pending_again(self, battle_ids: Sequence[str]) -> bool:
        return one_by_one.mark_pending_again(self, battle_ids)

    def lagging(self, battle_ids: Sequence[str]) -> list[str]:
        return one_by_one.lagging(self, battle_ids)

    def outcome(self, battle_id: str, version: int) -> str | None:
        with self._changed:
            battle = self._battles.get(battle_id)
            return battle.outcome(version) if battle else None

    def outcomes(self, battle_id: str, *, after: int = 0, limit: int = 100) -> list[tuple[int, str]]:
        with self._changed:
            battle = self._battles.get(battle_id)
            found = [pair for pair in battle.outcomes if pair[0] > after] if battle else []
            return found[: max(limit, 0)]

    def wait_outcome(self, battle_id: str, version: int, timeout_s: float) -> str | None:
        with self._changed:
            found: list[str | None] = [None]

            def landed() -> bool:
                found[0] = self.outcome(battle_id, version)
                return found[0] is not None

            self._changed.wait_for(landed, timeout=max(timeout_s, 0))
            return found[0]

    def follow_outcomes(
        self, cursors: Mapping[str, int], timeout_s: float, *, count: int = 100
    ) -> dict[str, list[tuple[int, str]]]:
        with self._changed:
            found: dict[str, list[tuple[int, str]]] = {}

            def landed() -> bool:
                for battle_id, after in cursors.items():
                    fresh = self.outcomes(battle_id, after=after, limit=count)
                    if fresh:
                        found[battle_id] = fresh
                return bool(found) or self._interrupted

            self._changed.wait_for(landed, timeout=max(timeout_s, 0))
            self._interrupted = False
            return found

    def interrupt_follow(self) -> None:
        with self._changed:
            self._interrupted = True
            self._changed.notify_all()

    def snapshot_at_or_before(self, battle_id: str, version: int) -> Projection | None:
        with self._changed:
            battle = self._battles.get(battle_id)
            return battle.snapshot_at_or_before(version) if battle else None

    def delete_derived(self, battle_id: str) -> None:
        with self._changed:
            if battle_id in self._battles:
                self._battles[battle_id].delete_derived()


if TYPE_CHECKING:

    def _conforms(store: MemoryEventStore) -> EventStore:
        return store  # mypy proves the class implements every method of the protocol
