"""The storage contract, one protocol per role: each consumer is typed against the roles it uses, and each
backend (eventstore/memory_store.py, eventstore/redis_store.py) implements every one, a module per role;
tests/eventstore/contract/ runs each role's contract on every backend. The records the roles take and give
are in eventstore/records.py, what they raise in eventstore/errors.py."""

from eventstore.roles.access import Access
from eventstore.roles.deliveries import Deliveries
from eventstore.roles.folds import Folds
from eventstore.roles.follow import Follow
from eventstore.roles.log import Log
from eventstore.roles.schedule import Schedule
from eventstore.roles.webhooks import Webhooks

__all__ = ["Access", "Deliveries", "Folds", "Follow", "Log", "Schedule", "Webhooks"]
