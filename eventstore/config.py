"""Where the event store and the queue live, read once from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias, overload
from urllib.parse import urlsplit

import redis
from redis.cluster import ClusterNode, RedisCluster

RedisClient: TypeAlias = "redis.Redis[Any] | RedisCluster[Any]"  # the store runs on either
Durability: TypeAlias = Literal["durable", "fast"]
# the AOF fsync policy of each durability profile: `durable` loses no acknowledged command
# in a Redis crash, `fast` up to a second of them
APPENDFSYNC: dict[Durability, str] = {"durable": "always", "fast": "everysec"}


@dataclass(frozen=True, slots=True, kw_only=True)
class StoreConfig:
    """`redis_url` None means: start the embedded server with its data in `data_dir`."""

    redis_url: str | None = None
    queue_redis_url: str | None = None  # RQ cannot run on Redis Cluster, so the queue may live elsewhere
    data_dir: Path = Path("./var")
    durability: Durability = "durable"  # of the embedded server; an external Redis is configured by its owner
    cluster: bool = False  # the event store is a Redis Cluster that REDIS_URL names a node of
    ack_replicas: int | None = None  # replicas an append waits for; None: those the topology has at start
    ack_timeout_ms: int = 1_000  # how long an append waits for them before it answers 503

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> StoreConfig:
        """REDIS_URL (a cluster's: one node or several, comma-separated), QUEUE_REDIS_URL (default:
        REDIS_URL), SIEGE_DATA_DIR (default ./var),
        SIEGE_DURABILITY (durable | fast, default durable), SIEGE_STORE_CLUSTER (1: a cluster, default 0),
        SIEGE_ACK_REPLICAS (auto | a count, default auto), SIEGE_ACK_TIMEOUT_MS (default 1000).
        A cluster store needs a separate queue Redis: without one this raises at start, not at first use."""
        source = os.environ if env is None else env
        redis_url = source.get("REDIS_URL") or None
        cluster = flag(source.get("SIEGE_STORE_CLUSTER") or "0", "SIEGE_STORE_CLUSTER")
        queue_url = source.get("QUEUE_REDIS_URL") or None
        if cluster:
            _require_separate_queue(redis_url, queue_url)
        return cls(
            redis_url=redis_url,
            queue_redis_url=queue_url or redis_url,
            data_dir=Path(source.get("SIEGE_DATA_DIR") or "./var"),
            durability=durability(source.get("SIEGE_DURABILITY") or "durable"),
            cluster=cluster,
            ack_replicas=_replicas(source.get("SIEGE_ACK_REPLICAS") or "auto"),
            ack_timeout_ms=_ack_timeout_ms(source.get("SIEGE_ACK_TIMEOUT_MS") or "1000"),
        )

    def connect_store(self, **options: Any) -> RedisClient:
        """A client for the event store as configured: a cluster client when SIEGE_STORE_CLUSTER=1."""
        if not self.redis_url:
            raise RuntimeError("no REDIS_URL: the event store's address is unknown")
        return connect(self.redis_url, cluster=self.cluster, **options)


def _require_separate_queue(redis_url: str | None, queue_url: str | None) -> None:
    """RQ and the rate-limit counters need one plain Redis: they cannot run on the cluster."""
    if not redis_url:
        raise ValueError("SIEGE_STORE_CLUSTER=1 needs REDIS_URL naming a node of the cluster")
    if not queue_url or queue_url == redis_url:
        raise ValueError(
            "SIEGE_STORE_CLUSTER=1 needs QUEUE_REDIS_URL naming a plain (non-cluster) Redis for the RQ "
            "queue and the rate-limit counters, other than REDIS_URL: RQ cannot run on a cluster"
        )


def _replicas(word: str) -> int | None:
    if word.strip().lower() == "auto":
        return None
    if not (word.strip().isascii() and word.strip().isdigit()):
        raise ValueError(f"SIEGE_ACK_REPLICAS must be auto or a count of replicas (0: none), not {word!r}")
    return int(word)


MAX_ACK_TIMEOUT_MS = 4_000  # below the store clients' 5 s socket timeout, which would cut the wait short


def _ack_timeout_ms(word: str) -> int:
    number = word.strip()
    if not (number.isascii() and number.isdigit()) or not 1 <= int(number) <= MAX_ACK_TIMEOUT_MS:
        raise ValueError(f"SIEGE_ACK_TIMEOUT_MS must be 1 to {MAX_ACK_TIMEOUT_MS} milliseconds, not {word!r}")
    return int(number)


def flag(word: str, name: str) -> bool:
    """On or off: 1/true/yes/on or 0/false/no/off (or empty), else a ValueError naming the setting."""
    value = word.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ValueError(f"{name} must be 1 or 0, not {word!r}")


@overload
def connect(url: str, *, cluster: Literal[False] = False, **options: Any) -> redis.Redis[Any]: ...


@overload
def connect(url: str, *, cluster: Literal[True], **options: Any) -> RedisCluster[Any]: ...


@overload
def connect(url: str, *, cluster: bool, **options: Any) -> RedisClient: ...


def connect(url: str, *, cluster: bool = False, **options: Any) -> RedisClient:
    """A client for the event store with bytes replies (what RQ needs too). A plain client connects on
    first use; a cluster client reads the slot map at once."""
    if cluster:
        # several nodes, comma-separated: a process starting while one is down reads the map from another
        first, *others = (part.strip() for part in url.split(",") if part.strip())
        more = [ClusterNode(host, port) for host, port in (_host_port(other) for other in others)]
        cluster_client: RedisCluster[Any] = RedisCluster.from_url(
            first, socket_connect_timeout=5, **({"startup_nodes": more} if more else {}), **options
        )
        return cluster_client
    settings: dict[str, Any] = {"socket_connect_timeout": 5, "health_check_interval": 30, **options}
    client: redis.Redis[Any] = redis.Redis.from_url(url, **settings)
    return client


def _host_port(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    if not parts.hostname:
        raise ValueError(f"REDIS_URL lists a node without a host: {url!r}")
    return parts.hostname, parts.port or 6379


def durability(word: str) -> Durability:
    """A profile name, or a ValueError that lists the profiles (a typo must not silently mean `fast`)."""
    name = word.strip().lower()
    for profile in APPENDFSYNC:
        if profile == name:
            return profile
    raise ValueError(f"SIEGE_DURABILITY must be one of {', '.join(APPENDFSYNC)}, not {word!r}")
