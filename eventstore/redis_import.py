"""Recreating a battle in Redis from a whole history (an import), streamed in pipelined batches."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from itertools import islice

from redis.commands.core import Script

from eventstore import keys
from eventstore.chain import linked
from eventstore.config import RedisClient
from eventstore.errors import BattleExists
from eventstore.records import Head, ImportRequest, StoredEntry
from eventstore.redis_tokens import token_json
from eventstore.stream_fields import to_fields


def import_battle(client: RedisClient, finish: Script, request: ImportRequest) -> Head:
    """`Log.import_battle`: the log written batch by batch, then `finish` (import_finish.lua) adds the
    secret and the token unless the id was taken meanwhile."""
    battle_id, token = request.battle_id, request.token
    log = keys.log(battle_id)
    if client.exists(log):
        raise BattleExists(battle_id)
    try:
        head = _write_log(client, log, request.entries, request.batch)
        granted = [token.digest, token_json(token)] if token else ["", ""]
        finished = finish(
            keys=[log, keys.secret(battle_id), keys.tokens(battle_id)],
            args=[head.version, request.server_seed, *granted],
        )
        if not finished:
            raise BattleExists(battle_id)
    except BaseException:
        client.delete(log)  # no half battle: without its secret and token nothing could use it
        raise
    client.zadd(keys.BATTLES, {battle_id: time.time()}, nx=True)
    return head


def _write_log(client: RedisClient, log: str, entries: Iterable[StoredEntry], batch: int) -> Head:
    head = Head(version=0, hash="")
    for chunk in _chunks(linked(entries), max(batch, 1)):
        pipe = client.pipeline(transaction=False)
        for stored in chunk:
            fields = to_fields(stored, stored.prev_hash, stored.hash)
            pipe.xadd(log, dict(zip(fields[::2], fields[1::2], strict=True)), id=f"0-{stored.version}")
        pipe.execute()  # an id the stream already holds fails XADD: another writer, refused
        head = Head(version=chunk[-1].version, hash=chunk[-1].hash)
    return head


def _chunks(entries: Iterator[StoredEntry], size: int) -> Iterator[list[StoredEntry]]:
    while chunk := list(islice(entries, size)):
        yield chunk
