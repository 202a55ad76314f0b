"""The whole storage contract as one type, while its consumers move to the role protocols of
eventstore/roles/ (this module goes once none names it)."""

from __future__ import annotations

from typing import Protocol

from eventstore.chain import GENESIS_HASH
from eventstore.roles import Access, Deliveries, Folds, Follow, Log, Schedule, Webhooks
from eventstore.roles.folds import require_consecutive
from eventstore.roles.schedule import SCHEDULED_TTL_S
from eventstore.roles.webhooks import ATTEMPTS_KEPT

__all__ = ["ATTEMPTS_KEPT", "GENESIS_HASH", "SCHEDULED_TTL_S", "EventStore", "require_consecutive"]


class EventStore(Log, Folds, Schedule, Access, Webhooks, Deliveries, Follow, Protocol):
    pass
