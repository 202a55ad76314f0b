"""The log in Redis Streams: create, import, append (one Lua round trip), head, reads, and the outcomes
folded from it."""

from __future__ import annotations

import json
import logging
import random
import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.exceptions import RedisError

from eventstore import keys, lua, redis_import
from eventstore import redis_rate as rate
from eventstore import redis_schedule as schedule
from eventstore.canonical import canonical_json
from eventstore.chain import GENESIS_HASH, entry_hash
from eventstore.config import RedisClient
from eventstore.errors import (
    AppendContention,
    BattleExists,
    HeadRegressed,
    ReplicasBehind,
    TokenRefused,
    UnknownBattle,
)
from eventstore.head_cache import HeadCache
from eventstore.records import (
    Appended,
    AppendRequest,
    Head,
    HeadRegression,
    ImportRequest,
    NewEntry,
    Spent,
    StoredEntry,
    TokenRecord,
)
from eventstore.redis_derived import outcome_of, read_outcome
from eventstore.redis_idem import refusal
from eventstore.redis_in_flight import InFlight
from eventstore.redis_tokens import token_json
from eventstore.replication import ReplicaAck, run_acknowledged
from eventstore.stream_fields import Row, from_fields, from_rows, rows_of, text, to_fields, version_of

MAX_TRIES = 64  # each retry means another appender won, so the system progresses; this bounds one caller
# Appends to one battle from one process take turns: they would all hash against the same head, one would
# win and the rest retry (a wasted round trip each, and on a hot battle a 409 for the unlucky). Striped, so
# the locks are bounded and two battles rarely share one.
APPEND_STRIPES = 64
# Processes appending to one hot battle race on its head: a loser claims the next turn (append.lua), and
# whoever meets another's claim a few times in a row steps back a random moment while it is used
YIELD_AFTER, YIELD_MAX_S = 4, 0.002
log = logging.getLogger("siege.store")


class RedisLog:
    def __init__(
        self,
        client: RedisClient,
        *,
        scheduled_ttl_ms: int,
        schedule_client: RedisClient | None = None,
        ack: ReplicaAck | None = None,
    ) -> None:
        self._client = client
        self._scheduled_ttl_ms = scheduled_ttl_ms
        # Pending marks span battles: on one node they join the append script; a cluster keeps them on the
        # queue's server, so a master in trouble holds up its own battles only
        self._schedule_client = schedule_client or client
        self._marks_in_script = schedule_client is None and not isinstance(client, RedisCluster)
        self._ack = ack or ReplicaAck()
        self._heads = HeadCache()
        self._acknowledged = HeadCache()  # the last head this process answered for, to see one lost
        self._turns = [threading.Lock() for _ in range(APPEND_STRIPES)]
        self._create_script = lua.register(client, "create")
        self._import_script = lua.register(client, "import_finish")
        self._append_script = lua.register(client, "append")
        self._release_claim = lua.register(client, "unlock")

    def create_battle(
        self, battle_id: str, created: NewEntry, server_seed: str, *, token: TokenRecord | None = None
    ) -> Appended:
        digest = entry_hash(1, created, GENESIS_HASH)
        fields = to_fields(created, GENESIS_HASH, digest)
        granted = [token.digest, token_json(token)] if token else ["", ""]
        script_keys = [keys.log(battle_id), keys.secret(battle_id), keys.tokens(battle_id)]
        created_now, confirmed = self._run(
            self._create_script, battle_id, script_keys, [server_seed, *granted, *fields]
        )
        if not created_now:
            raise BattleExists(battle_id)
        # The global index is not hash-tagged (it spans battles), so it cannot join the script on a cluster.
        self._client.zadd(keys.BATTLES, {battle_id: time.time()}, nx=True)
        self._require_replicas(confirmed)
        self._heads.put(battle_id, Head(version=1, hash=digest))
        self._acknowledged.put(battle_id, Head(version=1, hash=digest))
        return Appended(version=1, hash=digest)

    def import_battle(self, request: ImportRequest) -> Head:
        return redis_import.import_battle(self._client, self._import_script, request)

    def append(self, request: AppendRequest) -> Appended:
        battle_id, entry, budget = request.battle_id, request.entry, request.budget
        script_keys = [
            keys.log(battle_id),
            keys.idem(battle_id),
            keys.idem_expiry(battle_id),
            keys.tokens(battle_id),
            keys.append_claim(battle_id),
            *rate.counters(battle_id, budget),
        ]
        marks_in_script = request.mark_pending and self._marks_in_script
        if marks_in_script:
            script_keys += [keys.PENDING, keys.SCHEDULED]
        expected = "" if request.expected_version is None else str(request.expected_version)
        checks = [expected, entry.idempotency_key or "", request.fingerprint or ""]
        lease_ms, token_digest = max(int(request.lease_s * 1000), 0), request.token_digest or ""
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
                kept = [schedule.ttl_ms(request.retain_s), lease_ms, token_digest, claimant]
                args = [*checks, prev.version, prev.hash, *written, *fields, *kept, *rate.windows(budget)]
                reply, confirmed = self._run(self._append_script, battle_id, script_keys, args)
                # every reply is (status, the budget's window, left, reset ms, what the status says...)
                status, spent, said = text(reply[0]), rate.spent_of(budget, reply[1:4]), reply[4:]
                if status == "ok":
                    self._heads.put(battle_id, Head(version=version, hash=digest))
                    marked = (
                        bool(said[0])
                        if marks_in_script
                        else self._mark_after(battle_id, request.mark_pending)
                    )
                    self._require_replicas(confirmed)
                    self._acknowledged.put(battle_id, Head(version=version, hash=digest))
                    return Appended(version=version, hash=digest, enqueue=marked, spent=spent)
                if status == "replayed":
                    self._require_replicas(confirmed)  # the first attempt's entry: on the replicas now
                if status != "moved":
                    return self._refused(battle_id, status, said, spent)
                self._moved(battle_id, Head(version=int(said[0]), hash=text(said[1])), claimant)
        raise AppendContention(self._heads.get(battle_id).version)

    def _run(
        self, script: Script, battle_id: str, script_keys: list[str], args: list[Any]
    ) -> tuple[Any, int]:
        """The script's reply, and how many replicas confirmed its writes (0 when none is waited for)."""
        if self._ack.replicas is None:  # auto: read once, at the first append rather than at import or start
            self._ack = self._ack.resolved(self._client)
            log.info("appends wait for %d replica(s) before they are acknowledged", self._ack.replicas)
        if not self._ack.replicas:
            return script(keys=script_keys, args=args), 0
        return run_acknowledged(self._client, self._ack, keys.log(battle_id), script, script_keys, args)

    def _require_replicas(self, confirmed: int) -> None:
        wanted = self._ack.replicas or 0
        if confirmed < wanted:
            raise ReplicasBehind(confirmed, wanted)

    def _moved(self, battle_id: str, found: Head, claimant: str) -> None:
        """The head is not the cached one: another append landed, or (behind an acknowledged head, or at
        its version with another hash) acknowledged entries were lost, which is refused and recorded."""
        self._heads.put(battle_id, found)
        acknowledged = self._acknowledged.get(battle_id)
        lost = acknowledged.version > found.version or (
            acknowledged.version == found.version and acknowledged.hash != found.hash
        )
        if not lost:
            return
        self._acknowledged.put(battle_id, found)  # told once: the battle goes on from the head it has
        self._release_claim(keys=[keys.append_claim(battle_id)], args=[claimant])  # ours, if it took one
        record = [acknowledged.version, acknowledged.hash, found.version, found.hash, int(time.time() * 1000)]
        self._client.rpush(keys.regressions(battle_id), json.dumps(record))
        raise HeadRegressed(battle_id, acknowledged, found)

    def head_regressions(self, battle_id: str) -> list[HeadRegression]:
        found = []
        for raw in self._client.lrange(keys.regressions(battle_id), 0, -1):
            acked, acked_hash, version, digest, at_ms = json.loads(raw)
            was, now = Head(version=acked, hash=acked_hash), Head(version=version, hash=digest)
            found.append(HeadRegression(acknowledged=was, found=now, at_ms=at_ms))
        if not found:
            self._require(battle_id)
        return found

    def _mark_after(self, battle_id: str, wanted: bool) -> bool:
        """After the append, on the queue's server: the command is in the log whatever happens here, and a
        battle left unmarked is found by the reconciler."""
        try:
            return wanted and schedule.mark_pending(self._schedule_client, battle_id, self._scheduled_ttl_ms)
        except RedisError as error:
            log.warning("could not mark battle %s pending (%s); the reconciler will", battle_id, error)
            return False

    def _refused(self, battle_id: str, status: str, said: list[Any], spent: Spent | None) -> Appended:
        if status == "unknown":
            self._heads.drop(battle_id)
            self._acknowledged.drop(battle_id)
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
        self,
        battle_id: str,
        *,
        after: int = 0,
        upto: int | None = None,
        batch: int = 1000,
        read_ahead: bool = False,
    ) -> Iterator[StoredEntry]:
        if read_ahead:
            return self._read_ahead(battle_id, after, upto, batch)
        return self._read_pages(battle_id, after, upto, batch)

    def _read_pages(self, battle_id: str, after: int, upto: int | None, batch: int) -> Iterator[StoredEntry]:
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

    def _read_ahead(self, battle_id: str, after: int, upto: int | None, batch: int) -> Iterator[StoredEntry]:
        """`_read_pages` with the next page asked for before this one is handed out: the store reads it while
        the caller folds (eventstore/redis_in_flight.py)."""
        key, end = keys.log(battle_id), "+" if upto is None else f"0-{upto}"

        def page(start: int) -> InFlight[list[Row]]:
            begin = f"0-{start + 1}"
            again = lambda: self._client.xrange(key, begin, end, count=batch)  # noqa: E731
            return InFlight(self._client, ("XRANGE", key, begin, end, "COUNT", batch), rows_of, again)

        if upto is not None and after >= upto:
            return
        sent: InFlight[list[Row]] | None = page(after)
        first = True
        try:
            while sent is not None:
                rows = sent.answer()
                if not rows:
                    if first:
                        self._require(battle_id)
                    return
                first, last = False, version_of(rows[-1][0])
                sent = page(last) if len(rows) == batch and (upto is None or last < upto) else None
                yield from from_rows(rows)
        finally:
            if sent is not None:  # the caller stopped early: the page asked for ahead is not read
                sent.drop()

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

    def outcome(self, battle_id: str, version: int) -> str | None:
        return read_outcome(self._client, battle_id, version)

    def outcomes(self, battle_id: str, *, after: int = 0, limit: int = 100) -> list[tuple[int, str]]:
        if limit <= 0:
            return []
        rows = self._client.xrange(keys.outcomes(battle_id), f"0-{after + 1}", "+", count=limit)
        return [(version_of(row[0]), outcome_of(row)) for row in rows]

    def projected_version(self, battle_id: str) -> int:
        version = self._client.hget(keys.state(battle_id), "version")
        return int(version) if version is not None else 0

    def _require(self, battle_id: str) -> None:
        if not self._client.exists(keys.log(battle_id)):
            raise UnknownBattle(battle_id)
