"""What `make run` reads from the environment, once; every variable is listed in docs/configuration.md."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from eventstore.config import StoreConfig
from launcher import front
from launcher.supervise import RestartPolicy

WILDCARDS = ("0.0.0.0", "", "::")  # binds to every interface, none of which names the service


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    host: str
    port: int
    store: StoreConfig  # REDIS_URL unset: the embedded server, data in SIEGE_DATA_DIR
    api_key: str
    api_key_generated: bool
    workers: int
    restart: RestartPolicy
    front: bool  # nginx before gunicorn (launcher/front.py): SIEGE_FRONT, on by default when exposed

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        api_key = env.get("SIEGE_API_KEY", "")
        return cls(
            host=env.get("HOST", "127.0.0.1"),
            port=int(env.get("PORT", "8000")),
            store=StoreConfig.from_env(env),
            api_key=api_key or secrets.token_urlsafe(24),
            api_key_generated=not api_key,
            workers=int(env.get("SIEGE_WORKERS", "2")),
            restart=RestartPolicy.from_env(env),
            front=_front(env),
        )

    @property
    def bind(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def public_url(self) -> str:
        """What SIEGE_PUBLIC_URL defaults to: the printed base URL when bound to one host; for a wildcard
        bind none (loopback is no public address: events carry the relative `source` instead)."""
        return "" if self.host in WILDCARDS else self.base_url

    @property
    def base_url(self) -> str:
        # a wildcard bind is reached on loopback from this machine
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else "[::1]" if self.host == "::" else self.host
        return f"http://{host}:{self.port}"


def _front(env: Mapping[str, str]) -> bool:
    """Wanted, and then its binary found at start, or a ValueError that says how to get it."""
    wanted = front.wanted(env.get("SIEGE_FRONT", "auto"), env.get("HOST", "127.0.0.1"))
    if wanted:
        front.binary()
    return wanted
