"""The Redis Streams event store: the log, its derived keys and projection scheduling behind `EventStore`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eventstore.config import RedisClient
from eventstore.protocol import SCHEDULED_TTL_S, EventStore
from eventstore.redis_derived import RedisDerived
from eventstore.redis_folds import RedisFolds
from eventstore.redis_follow import RedisFollow
from eventstore.redis_idem import RedisIdempotency
from eventstore.redis_import import RedisImport
from eventstore.redis_log import RedisLog
from eventstore.redis_rate import RedisBudgets
from eventstore.redis_schedule import RedisSchedule, ttl_ms
from eventstore.redis_tickets import RedisTickets
from eventstore.redis_tokens import RedisTokens
from eventstore.redis_webhooks import RedisWebhooks


class RedisEventStore(
    RedisLog,
    RedisImport,
    RedisIdempotency,
    RedisBudgets,
    RedisDerived,
    RedisFolds,
    RedisFollow,
    RedisSchedule,
    RedisTokens,
    RedisTickets,
    RedisWebhooks,
):
    """One client, eleven concerns: each base owns its keys and scripts (see its module)."""

    def __init__(self, client: RedisClient, *, scheduled_ttl_s: float = SCHEDULED_TTL_S) -> None:
        RedisLog.__init__(self, client, scheduled_ttl_ms=ttl_ms(scheduled_ttl_s))
        RedisImport.__init__(self, client)
        RedisIdempotency.__init__(self, client)
        RedisBudgets.__init__(self, client)
        RedisDerived.__init__(self, client)
        RedisFolds.__init__(self, client)
        RedisSchedule.__init__(self, client, scheduled_ttl_s=scheduled_ttl_s)
        RedisTokens.__init__(self, client)
        RedisWebhooks.__init__(self, client)
        RedisFollow.__init__(self, client)
        RedisTickets.__init__(self, client)
        self.client = client


if TYPE_CHECKING:

    def _conforms(store: RedisEventStore) -> EventStore:
        return store  # mypy proves the class implements every method of the protocol
