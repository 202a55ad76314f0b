"""The log in process memory: create, import, append, head, reads, and the outcomes folded from it."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import TYPE_CHECKING

from eventstore.chain import linked
from eventstore.errors import BattleExists, CountedRefusal, RateLimited, TokenRefused
from eventstore.memory_battle import MemoryBattle, MemoryKeys
from eventstore.records import (
    Appended,
    AppendRequest,
    Head,
    HeadRegression,
    ImportRequest,
    NewEntry,
    StoredEntry,
    TokenRecord,
)


class MemoryLog(MemoryKeys):
    if TYPE_CHECKING:  # what it asks of the store's other roles (the access and schedule bases answer)

        def add_token(
            self, battle_id: str, token: TokenRecord, *, live_cap: int = 0, now: str = ""
        ) -> None: ...

        def token(self, battle_id: str, digest: str) -> TokenRecord | None: ...

        def mark_pending(self, battle_id: str) -> bool: ...

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
        self,
        battle_id: str,
        *,
        after: int = 0,
        upto: int | None = None,
        batch: int = 1000,
        read_ahead: bool = False,  # nothing to read ahead of in memory
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

    def outcome(self, battle_id: str, version: int) -> str | None:
        with self._changed:
            battle = self._battles.get(battle_id)
            return battle.outcome(version) if battle else None

    def outcomes(self, battle_id: str, *, after: int = 0, limit: int = 100) -> list[tuple[int, str]]:
        with self._changed:
            battle = self._battles.get(battle_id)
            found = [pair for pair in battle.outcomes if pair[0] > after] if battle else []
            return found[: max(limit, 0)]

    def projected_version(self, battle_id: str) -> int:
        with self._changed:
            battle = self._battles.get(battle_id)
            return battle.state.version if battle and battle.state else 0
