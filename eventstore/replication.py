"""What an acknowledged append promises with replicas: the entry is on `replicas` of them (fsynced, with
`fsynced`) before the caller hears of it, so a failover that promotes one of them keeps it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis
from redis.cluster import RedisCluster
from redis.exceptions import AskError, ConnectionError, NoScriptError, TimeoutError

from eventstore.config import RedisClient
from eventstore.errors import StoreUnavailable

ACK_TIMEOUT_MS = 1_000  # past this the replicas are late enough for the client to retry elsewhere
MOVED_TRIES = 3  # a slot that moved is followed this often (the map is read again each time)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplicaAck:
    """`replicas` 0: acknowledged once the master has it (a single node, or no wait wanted); None: every
    replica the topology has when the first append is made (`resolved`)."""

    replicas: int | None = 0
    timeout_ms: int = ACK_TIMEOUT_MS
    fsynced: bool = False  # WAITAOF (the replicas' AOF fsynced it) rather than WAIT (they received it)

    def command(self) -> tuple[str | int, ...]:
        wanted = self.replicas or 0
        if self.fsynced:
            return ("WAITAOF", 0, wanted, self.timeout_ms)
        return ("WAIT", wanted, self.timeout_ms)

    def resolved(self, client: RedisClient) -> ReplicaAck:
        """Auto made a count: the replicas the topology has now (a cluster's is settled at start, by
        eventstore.redis_store.open_store, which refuses one without replicas)."""
        if self.replicas is not None:
            return self
        return ReplicaAck(replicas=replicas_of(client), timeout_ms=self.timeout_ms, fsynced=self.fsynced)

    def confirmed(self, reply: Any) -> int:
        """How many replicas confirmed, from WAIT's integer or WAITAOF's [local, replicas]."""
        return int(reply[1]) if isinstance(reply, list | tuple) else int(reply)


def replicas_of(client: RedisClient) -> int:
    """The replicas the topology has now: the fewest any master has (a cluster), or the node's own."""
    if isinstance(client, RedisCluster):
        masters = client.get_primaries()
        counts = [_connected_replicas(client.get_redis_connection(node)) for node in masters]
        return min(counts, default=0)
    return _connected_replicas(client)


def _connected_replicas(node: redis.Redis[Any]) -> int:
    return int(node.info("replication").get("connected_slaves", 0))


def run_acknowledged(
    client: RedisClient, ack: ReplicaAck, key: str, script: Any, keys: Sequence[str], args: Sequence[Any]
) -> tuple[Any, int]:
    """The script and then WAIT on one connection to the key's master (WAIT counts that connection's own
    writes), in one round trip: the script's reply and how many replicas confirmed."""
    for _ in range(MOVED_TRIES):
        node = _master_of(client, key)
        try:
            reply, confirmed = _pipelined(node, ack, script, keys, args)
        except (ConnectionError, TimeoutError):
            _forget_map(client)  # the master may be gone: the next call reads who holds the slot now
            raise
        except AskError:  # MOVED is an AskError too: the slot has another master since the map was read
            _forget_map(client)
            continue
        return reply, confirmed
    raise StoreUnavailable(f"the slot of {key} kept moving to another master")


def _master_of(client: RedisClient, key: str) -> redis.Redis[Any]:
    if isinstance(client, RedisCluster):
        node = client.get_node_from_key(key)
        if node is None:
            raise StoreUnavailable(f"no master serves the slot of {key} now")
        return client.get_redis_connection(node)
    return client


def _pipelined(
    node: redis.Redis[Any], ack: ReplicaAck, script: Any, keys: Sequence[str], args: Sequence[Any]
) -> tuple[Any, int]:
    for _ in range(2):
        pipe: Any = node.pipeline(transaction=False)  # typed loosely: redis-py leaves execute_command untyped
        pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
        pipe.execute_command(*ack.command())
        reply, waited = pipe.execute(raise_on_error=False)
        if isinstance(reply, NoScriptError):  # a restarted or promoted server forgot it: load, send again
            pipe.script_load(script.script)
            pipe.execute()
            continue
        if isinstance(reply, Exception):
            raise reply
        if isinstance(waited, Exception):
            raise waited
        return reply, ack.confirmed(waited)
    raise NoScriptError("the append script could not be loaded")


def _forget_map(client: RedisClient) -> None:
    if isinstance(client, RedisCluster):
        try:
            client.nodes_manager.initialize()
        except Exception:  # the map is read again on the next call; this one has failed already
            return
