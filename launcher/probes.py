"""Is it up yet: a free port, an HTTP 200, a Redis PING, and waiting on them while watching the children."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable

import redis

from eventstore.embedded import free_port
from launcher.stack import Stack, say

__all__ = ["answers_200", "free_port", "pings", "wait_until"]

START_TIMEOUT_S = 60.0


def answers_200(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def pings(url: str) -> bool:
    client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def wait_until(
    ready: Callable[[], bool], stack: Stack, stop: threading.Event, timeout_s: float = START_TIMEOUT_S
) -> bool:
    """Poll `ready` until it holds; give up early when a child dies or a stop is asked for."""
    deadline = time.monotonic() + timeout_s
    while not stop.is_set() and time.monotonic() < deadline:
        if dead := stack.first_dead():
            say(f"{dead.name} exited with {dead.process.returncode} while starting")
            return False
        if ready():
            return True
        time.sleep(0.1)
    if not stop.is_set():
        say(f"not ready after {timeout_s:.0f}s")
    return False
