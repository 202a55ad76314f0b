"""The API's configuration: one typed, frozen record, read from the environment only by `from_env`."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from limits import parse_many

from eventstore.config import StoreConfig, flag
from replay.audit import MAX_ENTRIES
from webhooks.settings import WebhookSettings

Number = TypeVar("Number", int, float)
LOCAL_REDIS = "redis://127.0.0.1:6379/0"
NO_RATE_LIMIT = "off"
METRICS_ON, METRICS_OFF, METRICS_TOKEN = "on", "off", "token:"
MAX_TICKET_TTL_S = 60  # a stream ticket is a secret in a URL: it must not live long (issue 10)


@dataclass(frozen=True, slots=True, kw_only=True)
class ServiceConfig:
    store: StoreConfig = field(default_factory=StoreConfig)  # REDIS_URL, QUEUE_REDIS_URL
    api_key: str | None = None  # SIEGE_API_KEY: the service key that may create battles; None: anyone may
    behind_front: bool = False  # SIEGE_BEHIND_FRONT=1: the client's address is the one the front forwards
    max_body_bytes: int = 64 * 1024  # SIEGE_MAX_BODY_BYTES
    import_max_bytes: int = 256 * 1024 * 1024  # SIEGE_IMPORT_MAX_BYTES: `POST /battles/import` bodies
    max_wait_s: float = 10.0  # SIEGE_MAX_WAIT_S: cap on `Prefer: wait=N`
    max_waiters: int = 6  # SIEGE_MAX_WAITERS: waits held at once per process (threads: gunicorn_conf)
    page_default: int = 100  # SIEGE_PAGE_DEFAULT: `GET .../events` without `limit`
    page_max: int = 1000  # SIEGE_PAGE_MAX: larger `limit`s are clamped to this
    battle_cache_size: int = 10_000  # SIEGE_BATTLE_CACHE: battles whose header one process remembers
    preview_cache_size: int = 8 * 1024 * 1024  # SIEGE_PREVIEW_CACHE: about bytes of previews kept; 0: none
    idempotency_ttl_s: float = 24 * 3600.0  # SIEGE_IDEMPOTENCY_TTL_S: how long a key replays its response
    rate_limit: str = "1200 per minute"  # SIEGE_RATE_LIMIT: per token (limits notation), or "off"
    battle_rate_limit: str = "4800 per minute"  # SIEGE_BATTLE_RATE_LIMIT: all of a battle's tokens, or "off"
    rate_limit_storage: str | None = None  # SIEGE_RATE_LIMIT_STORAGE: a limits storage URI; None: the queue
    cors_origins: tuple[str, ...] = ("*",)  # SIEGE_CORS_ORIGINS: browser origins allowed; () for none
    audit_max_entries: int = MAX_ENTRIES  # SIEGE_AUDIT_MAX_ENTRIES: versions one audit checks at most
    metrics: str = METRICS_ON  # SIEGE_METRICS: `GET /metrics` is `on` (public), `off`, or `token:<secret>`
    webhooks: WebhookSettings = field(default_factory=WebhookSettings)  # SIEGE_WEBHOOK_ALLOW, ...
    max_streams: int = 64  # SIEGE_MAX_STREAMS: SSE streams one process holds (each holds a thread)
    max_streams_per_battle: int = 16  # SIEGE_MAX_STREAMS_PER_BATTLE: of those, one battle's
    max_streams_per_token: int = 4  # SIEGE_MAX_STREAMS_PER_TOKEN: of those, one token's (its tickets' too)
    max_tokens: int = 64  # SIEGE_MAX_TOKENS: live tokens (not revoked, not expired) one battle may have
    stream_heartbeat_s: float = 10.0  # SIEGE_STREAM_HEARTBEAT_S: the longest an open stream stays silent
    stream_ticket_ttl_s: int = 30  # SIEGE_STREAM_TICKET_TTL_S: how long a stream ticket opens a stream

    @property
    def redis_url(self) -> str:
        """The event store; the API has no embedded server of its own, `make run` passes the URL."""
        return self.store.redis_url or LOCAL_REDIS

    @property
    def queue_url(self) -> str:
        return self.store.queue_redis_url or self.redis_url

    @property
    def rate_limit_storage_uri(self) -> str:
        """Counters live on the queue's Redis by default: a plain Redis, never a cluster."""
        return self.rate_limit_storage or self.queue_url

    @property
    def rate_limited(self) -> bool:
        return self.rate_limit.strip().lower() != NO_RATE_LIMIT

    @property
    def battle_rate_limited(self) -> bool:
        return self.battle_rate_limit.strip().lower() != NO_RATE_LIMIT

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ServiceConfig:
        env = os.environ if environ is None else environ
        base = cls()
        return cls(
            store=StoreConfig.from_env(env),
            api_key=env.get("SIEGE_API_KEY") or None,
            behind_front=flag(env.get("SIEGE_BEHIND_FRONT") or "0", "SIEGE_BEHIND_FRONT"),
            max_body_bytes=_read(env, "SIEGE_MAX_BODY_BYTES", int, base.max_body_bytes, minimum=1),
            import_max_bytes=_read(env, "SIEGE_IMPORT_MAX_BYTES", int, base.import_max_bytes, minimum=1),
            max_wait_s=_read(env, "SIEGE_MAX_WAIT_S", float, base.max_wait_s, minimum=0),
            max_waiters=_read(env, "SIEGE_MAX_WAITERS", int, base.max_waiters, minimum=0),
            page_default=_read(env, "SIEGE_PAGE_DEFAULT", int, base.page_default, minimum=1),
            page_max=_read(env, "SIEGE_PAGE_MAX", int, base.page_max, minimum=1),
            battle_cache_size=_read(env, "SIEGE_BATTLE_CACHE", int, base.battle_cache_size, minimum=1),
            preview_cache_size=_read(env, "SIEGE_PREVIEW_CACHE", int, base.preview_cache_size, minimum=0),
            idempotency_ttl_s=_read(env, "SIEGE_IDEMPOTENCY_TTL_S", float, base.idempotency_ttl_s, minimum=1),
            rate_limit=_rate_limit(env.get("SIEGE_RATE_LIMIT") or base.rate_limit),
            battle_rate_limit=_rate_limit(
                env.get("SIEGE_BATTLE_RATE_LIMIT") or base.battle_rate_limit, "SIEGE_BATTLE_RATE_LIMIT"
            ),
            rate_limit_storage=env.get("SIEGE_RATE_LIMIT_STORAGE") or None,
            cors_origins=_origins(env.get("SIEGE_CORS_ORIGINS"), base.cors_origins),
            audit_max_entries=_read(env, "SIEGE_AUDIT_MAX_ENTRIES", int, base.audit_max_entries, minimum=1),
            metrics=_metrics(env.get("SIEGE_METRICS") or base.metrics),
            webhooks=WebhookSettings.from_env(env),
            max_streams=_read(env, "SIEGE_MAX_STREAMS", int, base.max_streams, minimum=0),
            max_streams_per_battle=_read(
                env, "SIEGE_MAX_STREAMS_PER_BATTLE", int, base.max_streams_per_battle, minimum=1
            ),
            max_streams_per_token=_read(
                env, "SIEGE_MAX_STREAMS_PER_TOKEN", int, base.max_streams_per_token, minimum=1
            ),
            max_tokens=_read(env, "SIEGE_MAX_TOKENS", int, base.max_tokens, minimum=1),
            stream_heartbeat_s=_read(
                env, "SIEGE_STREAM_HEARTBEAT_S", float, base.stream_heartbeat_s, minimum=0.01
            ),
            stream_ticket_ttl_s=_at_most(
                _read(env, "SIEGE_STREAM_TICKET_TTL_S", int, base.stream_ticket_ttl_s, minimum=1),
                MAX_TICKET_TTL_S,
                "SIEGE_STREAM_TICKET_TTL_S",
            ),
        )


def _at_most(value: Number, maximum: Number, name: str) -> Number:
    if value > maximum:
        raise ValueError(f"{name} must be at most {maximum}, got {value}")
    return value


def _rate_limit(value: str, name: str = "SIEGE_RATE_LIMIT") -> str:
    """Checked here, so a typo stops the process at start instead of at its first request."""
    if value.strip().lower() != NO_RATE_LIMIT:
        try:
            parse_many(value)
        except ValueError:
            raise ValueError(f"{name} must read like `1200 per minute` or `off`, got {value!r}") from None
    return value


def _metrics(value: str) -> str:
    word = value.strip()
    if word.lower() in (METRICS_ON, METRICS_OFF):
        return word.lower()
    if word.startswith(METRICS_TOKEN) and len(word) > len(METRICS_TOKEN):
        return word
    raise ValueError(f"SIEGE_METRICS must be `on`, `off` or `token:<secret>`, got {value!r}")


def _origins(raw: str | None, fallback: tuple[str, ...]) -> tuple[str, ...]:
    """A comma-separated list; `none` allows no browser origin at all."""
    if raw is None or not raw.strip():
        return fallback
    origins = tuple(origin.strip() for origin in raw.split(",") if origin.strip())
    return () if origins == ("none",) else origins


def _read(
    env: Mapping[str, str], name: str, kind: Callable[[str], Number], fallback: Number, *, minimum: float
) -> Number:
    raw = env.get(name)
    if raw is None or raw == "":
        return fallback
    try:
        value = kind(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {raw!r}") from None
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {raw!r}")
    return value
