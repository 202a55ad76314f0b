"""The in-process event store: the same contract as Redis, every role of eventstore/roles/ (a base each),
for fast tests and the contract suite."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eventstore.memory_access import MemoryAccess
from eventstore.memory_battle import MemoryKeys
from eventstore.memory_deliveries import MemoryDeliveries
from eventstore.memory_folds import MemoryFolds
from eventstore.memory_follow import MemoryFollow
from eventstore.memory_log import MemoryLog
from eventstore.memory_schedule import MemorySchedule
from eventstore.memory_webhooks import MemoryWebhooks, WebhookKeys
from eventstore.roles import Access, Deliveries, Folds, Follow, Log, Schedule, Webhooks
from eventstore.roles.schedule import SCHEDULED_TTL_S


class MemoryEventStore(
    MemoryLog, MemoryFolds, MemorySchedule, MemoryAccess, MemoryWebhooks, MemoryDeliveries, MemoryFollow
):
    """The battles' keys (MemoryKeys) with one lock, a condition on it waking `wait_outcome` when
    projections land; the fold locks, the schedule, tokens, tickets, webhook operations' keys and webhooks
    each behind a lock of their own."""

    def __init__(self, *, scheduled_ttl_s: float = SCHEDULED_TTL_S) -> None:
        MemoryKeys.__init__(self)
        MemoryFolds.__init__(self)
        MemorySchedule.__init__(self, scheduled_ttl_s=scheduled_ttl_s)
        MemoryAccess.__init__(self)
        WebhookKeys.__init__(self)
        MemoryFollow.__init__(self)


if TYPE_CHECKING:

    def _conforms(
        store: MemoryEventStore,
    ) -> tuple[Log, Folds, Schedule, Access, Webhooks, Deliveries, Follow]:
        return store, store, store, store, store, store, store  # mypy proves it implements every role
