"""The app factory: builds the Flask app around the dependencies it is given; no I/O until a request."""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

import redis
from flask import Blueprint, Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from service.access import auth, battle_budgets, caller_limits
from service.access.token_cache import TokenCache
from service.commands.preview_memory import PreviewMemory
from service.commands.scheduling import Scheduler
from service.config import ServiceConfig
from service.deps import EXTENSION, Services
from service.endpoints import blueprints, health, verify, viewer
from service.http import cors, logs, problems, routing
from service.http.bodies import CappedRequest
from service.openapi.command_bodies import register_commands
from service.openapi.smorest_api import SiegeApi
from service.openapi.swagger_ui import assets, document, openapi_settings
from service.openapi.webhooks import register_webhooks
from service.reading.battle_cache import BattleCache
from service.reading.reveals import Reveals
from service.streams.hub import Hub

if TYPE_CHECKING:
    from eventstore.memory_store import MemoryEventStore
    from eventstore.redis_store import RedisEventStore

TITLE = "Siege rules service"
API_VERSION = "1"
CONNECT_TIMEOUT_S = 5
# no store call takes long (a `Prefer: wait` blocks 1 s at a time): past this Redis is unreachable (a 503)
STORE_TIMEOUT_S = 5
API_DOCS = "api-docs"  # flask-smorest's blueprint serving /openapi.json and /docs
SYNC_CHECKED_MAX = 1024  # hooks, views and error handlers: a few dozen; past this, checked each time


class SiegeFlask(Flask):
    """Flask, remembering which callables are plain functions: it asks for each of a request's dozen
    hooks and its view, every request (`inspect.iscoroutinefunction`, ~2 % of a command's CPU)."""

    def __init__(self, import_name: str) -> None:
        super().__init__(import_name)
        self._sync: dict[Callable[..., Any], bool] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        is_sync = self._sync.get(func)
        if is_sync is None:
            is_sync = not inspect.iscoroutinefunction(func)
            if len(self._sync) < SYNC_CHECKED_MAX:
                self._sync[func] = is_sync
        return func if is_sync else self.async_to_sync(func)


def create_app(
    config: ServiceConfig | None = None,
    *,
    store: RedisEventStore | MemoryEventStore | None = None,
    queue_redis: redis.Redis[Any] | None = None,
) -> Flask:
    """`store` and `queue_redis` default to clients on the configured URLs (they connect lazily); the
    store is a backend, which the endpoints see in each of its roles."""
    config = config or ServiceConfig()
    if store is None:
        store = _redis_store(config)
    if queue_redis is None:  # RQ needs a plain Redis (never a cluster), bytes replies
        queue_redis = redis.Redis.from_url(
            config.queue_url, socket_connect_timeout=CONNECT_TIMEOUT_S, socket_timeout=STORE_TIMEOUT_S
        )
    app = SiegeFlask(__name__)
    app.request_class = CappedRequest
    app.config.update(openapi_settings(TITLE, API_VERSION), MAX_CONTENT_LENGTH=config.max_body_bytes)
    app.extensions[EXTENSION] = Services(
        config=config,
        store=store,
        folds=store,
        access=store,
        webhooks=store,
        deliveries=store,
        queue_redis=queue_redis,
        battles=BattleCache(store, config.battle_cache_size),
        scheduler=Scheduler(store, queue_redis),
        tokens=TokenCache(config.battle_cache_size),
        reveals=Reveals(config.battle_cache_size),
        waiters=threading.BoundedSemaphore(config.max_waiters),
        hub=Hub(
            store,
            store,
            max_streams=config.max_streams,
            per_battle=config.max_streams_per_battle,
            per_token=config.max_streams_per_token,
        ),
        previews=PreviewMemory(config.preview_cache_size),
    )
    if config.behind_front:  # the front's X-Forwarded-For is the client: limits and logs key on it
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1)  # type: ignore[method-assign]
    logs.install(app)  # first: the request id is set before any other hook can log
    problems.install(app)
    auth.install(app)  # before the limiter: a request is counted against the token it authenticated
    api = SiegeApi(app)
    routing.install(app, api)
    api.document_fields()
    api.document_security()
    register_commands(api.spec)
    for blueprint in blueprints():
        api.register_blueprint(blueprint)
    api.tie_options_to_rulesets()
    register_webhooks(api.spec)
    app.register_blueprint(assets)
    app.register_blueprint(document)
    app.register_blueprint(viewer.static)
    app.register_blueprint(verify.static)
    cors.install(app, config)  # once every route is there: its preflight lists their methods
    battle_budgets.install(app, config)  # a battle token's budget, counted in its battle's keys
    caller_limits.install(
        app,
        config,
        health.blp,
        assets,
        document,
        viewer.static,
        verify.static,
        cast(Blueprint, app.blueprints[API_DOCS]),
    )
    return app


def _redis_store(config: ServiceConfig) -> RedisEventStore:
    from eventstore.redis_store import open_store  # only when no store is handed in

    # a cluster client reads the slot map here, so a cluster store must answer when a process starts
    store = replace(config.store, redis_url=config.redis_url, queue_redis_url=config.queue_url)
    return open_store(store, socket_timeout=STORE_TIMEOUT_S)
