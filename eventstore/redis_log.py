"""The command log in Redis Streams: create, append (one Lua round trip), head, reads."""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

from redis.cluster import RedisCluster

from eventstore import keys, lua
from eventstore import redis_rate as rate
from eventstore import redis_schedule as schedule
from eventstore.canonical import canonical_json
from eventstore.chain import entry_hash
from eventstore.config import RedisClient
from eventstore.errors import AppendContention, BattleExists, TokenRefused, UnknownBattle
from eventstore.head_cache import HeadCache
from eventstore.protocol import GENESIS_HASH, IDEMPOTENCY_RETAIN_S
from eventstore.records import Appended, Budget, Head, NewEntry, Spent, StoredEntry, TokenRecord
from eventstore.redis_idem import refusal
from eventstore.redis_tokens import token_json
from eventstore.stream_fields import from_fields, from_rows, text, to_fields, version_of

MAX_TRIES = 64  # each retry means another appender won, so the system progresses; this bounds one caller
# Appends to one battle from one process take turns: they would all hash against the same head, one would
# win and the rest retry (a wasted round trip each, and on a hot battle a 409 for the unlucky). Striped, so
# the locks are bounded and two battles rarely share one.
APPEND_STRIPES = 64
# Processes appending to one hot battle race on its head: a loser claims the next turn (append.lua), and
# whoever meets another's claim a few times in a row steps back a random moment while it is used
YIELD_AFTER, YIELD_MAX_S = 4, 0.002


class RedisLog:
    def __init__(self, client: RedisClient, *, scheduled_ttl_ms: int) -> None:
        self._client = client
        self._scheduled_ttl_ms = scheduled_ttl_ms
        # On one node the pending mark joins the append script; a cluster keeps it on another slot.
        self._marks_in_script = not isinstance(client, RedisCluster)
        self._heads = HeadCache()
        self._turns = [threading.Lock() for _ in range(APPEND_STRIPES)]
        self._create_script = lua.register(client, "create")
        self._append_script = lua.register(client, "append")

    def create_battle(
        self, battle_id: str, created: NewEntry, server_seed: str, *, token: TokenRecord | None = None
    ) -> Appended:
        digest = entry_hash(1, created, GENESIS_HASH)
        fields = to_fields(created, GENESIS_HASH, digest)
        granted = [token.digest, token_json(token)] if token else ["", ""]
        created_now = self._create_script(
            keys=[keys.log(battle_id), keys.secret(battle_id), keys.tokens(battle_id)],
            args=[server_seed, *granted, *fields],
        )
        if not created_now:
            raise BattleExists(battle_id)
        # The global index is not hash-tagged (it spans battles), so it cannot join the script on a cluster.
        self._client.zadd(keys.BATTLES, {battle_id: time.time()}, nx=True)
        self._heads.put(battle_id, Head(version=1, hash=digest))
        return Appended(version=1, hash=digest)

    def append(
        self,
        battle_id: str,
        entry: NewEntry,
        *,
        expected_version: int | None = None,
        fingerprint: str | None = None,
        mark_pending: bool = False,
        retain_s: float = IDEMPOTENCY_RETAIN_S,
        lease_s: float = 0.0,
        token_digest: str | None = None,
        budget: Budget | None = None,
    ) -> Appended:
        script_keys = [
            keys.log(battle_id),
            keys.idem(battle_id),
            keys.idem_expiry(battle_id),
            keys.tokens(battle_id),
            keys.append_claim(battle_id),
            *rate.counters(battle_id, budget),
        ]
        marks_in_script = mark_pending and self._marks_in_script
        if marks_in_script:
            script_keys += [keys.PENDING, keys.SCHEDULED]
        expected = "" if expected_version is None else str(expected_version)
        checks = [expected, entry.idempotency_key or "", fingerprint or ""]
        claimant = secrets.token_hex(16)  # as unique as a uuid4's hex, a fifth of its cost
        with self._turns[hash(battle_id) % APPEND_STRIPES]:
            for attempt in range(MAX_TRIES):
                if attempt >= YIELD_AFTER:
                    time.sleep(random.random() * YIELD_MAX_S)
                prev = self._heads.get(battle_id)
                version = prev.version + 1
                digest = entry_hash(version, entry, prev.hash)
                written = [f"0-{version}", version, digest, battle_id, self._scheduled_ttl_ms]
                fields = [canonical_json(to_fields(entry, prev.hash, digest))]
                kept = [schedule.ttl_ms(retain_s), max(int(lease_s * 1000), 0), token_digest or "", claimant]
                reply = self._append_script(
                    keys=script_keys,
                    args=[*checks, prev.version, prev.hash, *written, *fields, *kept, *rate.windows(budget)],
                )
                # every reply is (status, the budget's window, left, reset ms, what the status says...)
                status, spent, said = text(reply[0]), rate.spent_of(budget, reply[1:4]), reply[4:]
                if status == "ok":
                    self._heads.put(battle_id, Head(version=version, hash=digest))
                    marked = bool(said[0]) if marks_in_script else self._mark_after(battle_id, mark_pending)
                    return Appended(version=version, hash=digest, enqueue=marked, spent=spent)
                if status != "moved":
                    return self._refused(battle_id, status, said, spent)
                self._heads.put(battle_id, Head(version=int(said[0]), hash=text(said[1])))
        raise AppendContention(self._heads.get(battle_id).version)

    def _mark_after(self, battle_id: str, wanted: bool) -> bool:
        return wanted and schedule.mark_pending(self._client, battle_id, self._scheduled_ttl_ms)

    def _refused(self, battle_id: str, status: str, said: list[Any], spent: Spent | None) -> Appended:
        if status == "unknown":
            self._heads.drop(battle_id)
            raise UnknownBattle(battle_id)
        if status == "token":
            raise TokenRefused(battle_id)
        return refusal(status, said, spent)

    def head(self, battle_id: str) -> Head:
        rows = self._client.xrevrange(keys.log(battle_id), "+", "-", count=1)
        if not rows:
            raise UnknownBattle(battle_id)
        stored = from_fields(*rows[0])
        head = Head(version=stored.version, hash=stored.hash)
        self._heads.put(battle_id, head)
        return head

    def read(self, battle_id: str, *, after: int = 0, limit: int = 100) -> list[StoredEntry]:
        if limit <= 0:
            return []
        entries = from_rows(self._client.xrange(keys.log(battle_id), f"0-{after + 1}", "+", count=limit))
        if not entries:
            self._require(battle_id)
        return entries

    def entry(self, battle_id: str, version: int) -> StoredEntry | None:
        if version < 1:
            return None
        rows = self._client.xrange(keys.log(battle_id), f"0-{version}", f"0-{version}")
        return from_fields(*rows[0]) if rows else None

    def iter_entries(
        self, battle_id: str, *, after: int = 0, upto: int | None = None, batch: int = 1000
    ) -> Iterator[StoredEntry]:
        end = "+" if upto is None else f"0-{upto}"
        start = after
        while upto is None or start < upto:
            rows = self._client.xrange(keys.log(battle_id), f"0-{start + 1}", end, count=batch)
            if not rows:
                if start == after:
                    self._require(battle_id)
                return
            yield from from_rows(rows)
            start = version_of(rows[-1][0])
            if len(rows) < batch:
                return

    def secret(self, battle_id: str) -> str:
        seed = self._client.get(keys.secret(battle_id))
        if seed is None:
            raise UnknownBattle(battle_id)
        return text(seed)

    def battle_ids(self) -> Iterator[str]:
        start, page = 0, 1000
        while True:
            ids = self._client.zrange(keys.BATTLES, start, start + page - 1)
            yield from (text(battle_id) for battle_id in ids)
            if len(ids) < page:
                return
            start += page

    def _require(self, battle_id: str) -> None:
        if not self._client.exists(keys.log(battle_id)):
            raise UnknownBattle(battle_id)
