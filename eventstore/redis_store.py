"""The Redis Streams event store: one client, every role of eventstore/roles/ (a base each)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eventstore.config import RedisClient, StoreConfig, connect
from eventstore.redis_access import RedisAccess
from eventstore.redis_deliveries import RedisDeliveries
from eventstore.redis_folds import RedisFolds
from eventstore.redis_follow import RedisFollow
from eventstore.redis_log import RedisLog
from eventstore.redis_schedule import RedisSchedule, ttl_ms
from eventstore.redis_webhooks import RedisWebhooks
from eventstore.replication import ReplicaAck, replicas_of
from eventstore.roles import Access, Deliveries, Folds, Follow, Log, Schedule, Webhooks
from eventstore.roles.schedule import SCHEDULED_TTL_S


class RedisEventStore(
    RedisLog, RedisFolds, RedisSchedule, RedisAccess, RedisWebhooks, RedisDeliveries, RedisFollow
):
    """One client, seven roles: each base implements one, with its own keys and scripts (see its module)."""

    def __init__(
        self,
        client: RedisClient,
        *,
        scheduled_ttl_s: float = SCHEDULED_TTL_S,
        schedule_client: RedisClient | None = None,
        ack: ReplicaAck | None = None,
    ) -> None:
        """`schedule_client`: where pending marks go (default `client`); `ack`: what an append waits for
        before it is acknowledged (default: the master alone)."""
        ttl = ttl_ms(scheduled_ttl_s)
        RedisLog.__init__(self, client, scheduled_ttl_ms=ttl, schedule_client=schedule_client, ack=ack)
        RedisFolds.__init__(self, client)
        RedisSchedule.__init__(self, client, scheduled_ttl_s=scheduled_ttl_s, schedule_client=schedule_client)
        RedisAccess.__init__(self, client)
        RedisWebhooks.__init__(self, client)
        RedisDeliveries.__init__(self, client)
        RedisFollow.__init__(self, client)
        self.client = client


if TYPE_CHECKING:

    def _conforms(
        store: RedisEventStore,
    ) -> tuple[Log, Folds, Schedule, Access, Webhooks, Deliveries, Follow]:
        return store, store, store, store, store, store, store  # mypy proves it implements every role


def open_store(config: StoreConfig, **options: Any) -> RedisEventStore:
    """The store as configured: on a cluster, pending marks on the queue's plain server; appends waiting
    (WAIT) for the replicas SIEGE_ACK_REPLICAS asks. Not WAITAOF: Valkey replicas report their fsync
    about once a second, so each append would wait that long (docs/performance.md)."""
    client = config.connect_store(**options)
    schedule_client = connect(str(config.queue_redis_url), **options) if config.cluster else None
    replicas = config.ack_replicas
    # a cluster client has read the topology already
    if config.cluster and replicas is None and not (replicas := replicas_of(client)):
        raise ValueError(
            "the cluster's masters have no replicas, so a failover would lose acknowledged commands: "
            "add replicas, or set SIEGE_ACK_REPLICAS=0 to accept that"
        )
    ack = ReplicaAck(replicas=replicas, timeout_ms=config.ack_timeout_ms)
    return RedisEventStore(client, schedule_client=schedule_client, ack=ack)
