"""Configuration comes from the environment in one place: ServiceConfig.from_env, used by service.wsgi."""

from __future__ import annotations

import importlib

import pytest

from service.config import LOCAL_REDIS, ServiceConfig
from service.deps import EXTENSION


def test_defaults_without_any_variable() -> None:
    config = ServiceConfig.from_env({})

    assert config == ServiceConfig()
    assert config.redis_url == config.queue_url == LOCAL_REDIS
    assert config.api_key is None


def test_every_variable_is_read() -> None:
    env = {
        "REDIS_URL": "redis://store:6379/1",
        "QUEUE_REDIS_URL": "redis://queue:6379/0",
        "SIEGE_API_KEY": "k",
        "SIEGE_MAX_BODY_BYTES": "1024",
        "SIEGE_MAX_WAIT_S": "2.5",
        "SIEGE_PAGE_DEFAULT": "10",
        "SIEGE_PAGE_MAX": "20",
        "SIEGE_BATTLE_CACHE": "5",
        "SIEGE_PREVIEW_CACHE": "0",
        "SIEGE_IDEMPOTENCY_TTL_S": "60",
        "SIEGE_RATE_LIMIT": "10 per second",
        "SIEGE_RATE_LIMIT_STORAGE": "memory://",
        "SIEGE_CORS_ORIGINS": "https://a.example, https://b.example",
    }

    config = ServiceConfig.from_env(env)

    assert (config.redis_url, config.queue_url, config.api_key) == (
        "redis://store:6379/1",
        "redis://queue:6379/0",
        "k",
    )
    assert (config.max_body_bytes, config.max_wait_s) == (1024, 2.5)
    assert (config.page_default, config.page_max, config.battle_cache_size) == (10, 20, 5)
    assert config.preview_cache_size == 0
    assert (config.idempotency_ttl_s, config.rate_limit, config.rate_limit_storage_uri) == (
        60,
        "10 per second",
        "memory://",
    )
    assert config.cors_origins == ("https://a.example", "https://b.example")


def test_rate_limit_counters_default_to_the_queue_redis() -> None:
    config = ServiceConfig.from_env(
        {"REDIS_URL": "redis://store:6379/1", "QUEUE_REDIS_URL": "redis://q:6379/2"}
    )
    assert config.rate_limit_storage_uri == "redis://q:6379/2"
    assert config.rate_limited


@pytest.mark.parametrize(
    "value, origins",
    [("*", ("*",)), ("none", ()), ("", ("*",)), (" https://x.example ,", ("https://x.example",))],
)
def test_cors_origins_are_a_list_any_or_none(value: str, origins: tuple[str, ...]) -> None:
    assert ServiceConfig.from_env({"SIEGE_CORS_ORIGINS": value}).cors_origins == origins


def test_the_rate_limit_can_be_off() -> None:
    assert not ServiceConfig.from_env({"SIEGE_RATE_LIMIT": "off"}).rate_limited


def test_the_queue_defaults_to_the_store_server() -> None:
    assert ServiceConfig.from_env({"REDIS_URL": "redis://store:6379/1"}).queue_url == "redis://store:6379/1"


@pytest.mark.parametrize(
    "name, value",
    [
        ("SIEGE_MAX_BODY_BYTES", "lots"),
        ("SIEGE_PAGE_MAX", "0"),
        ("SIEGE_MAX_WAIT_S", "-1"),
        ("SIEGE_IDEMPOTENCY_TTL_S", "0"),
        ("SIEGE_RATE_LIMIT", "lots"),
        ("SIEGE_PREVIEW_CACHE", "-1"),
    ],
)
def test_a_bad_value_names_its_variable(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=name):
        ServiceConfig.from_env({name: value})


def test_the_wsgi_module_builds_the_app_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, redis_url: str
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("SIEGE_MAX_WAIT_S", "2")

    wsgi = importlib.reload(importlib.import_module("service.wsgi"))

    assert wsgi.app.extensions[EXTENSION].config.max_wait_s == 2
    assert wsgi.app.test_client().get("/readyz").status_code == 200
