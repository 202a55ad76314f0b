"""What the endpoints work with, built once by `create_app` and found through the current app."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, cast

from flask import current_app
from redis import Redis

from eventstore.roles import Access, Deliveries, Folds, Log, Webhooks
from service.access.token_cache import TokenCache
from service.commands.preview_memory import PreviewMemory
from service.commands.scheduling import Scheduler
from service.config import ServiceConfig
from service.reading.battle_cache import BattleCache
from service.reading.reveals import Reveals
from service.streams.hub import Hub

EXTENSION = "siege"


@dataclass(frozen=True, slots=True, kw_only=True)
class Services:
    config: ServiceConfig
    # the event store in each role an endpoint uses, one backend behind every field (the scheduler holds
    # its schedule, the hub its follow)
    store: Log  # the battles' logs and the outcomes folded from them
    folds: Folds
    access: Access
    webhooks: Webhooks
    deliveries: Deliveries
    queue_redis: Redis[Any]
    battles: BattleCache
    scheduler: Scheduler
    tokens: TokenCache
    reveals: Reveals  # how far this process read each battle's outcomes for reveals (hidden orders)
    waiters: threading.BoundedSemaphore  # `Prefer: wait` answers in progress: a thread is left for the rest
    hub: Hub  # this process's stream reader; its thread starts with the first stream
    previews: PreviewMemory  # the previews this process answered lately, by the state and command decided


def services() -> Services:
    return cast(Services, current_app.extensions[EXTENSION])
