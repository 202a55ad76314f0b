"""What `make run` reads from the environment, once; every variable is listed in the README."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    host: str
    port: int
    redis_url: str | None  # None: start the embedded server
    data_dir: str
    api_key: str
    api_key_generated: bool
    workers: int
    durable: bool  # AOF `appendfsync always` for the embedded server

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        api_key = env.get("SIEGE_API_KEY", "")
        return cls(
            host=env.get("HOST", "127.0.0.1"),
            port=int(env.get("PORT", "8000")),
            redis_url=env.get("REDIS_URL") or None,
            data_dir=env.get("SIEGE_DATA_DIR", "./var"),
            api_key=api_key or secrets.token_urlsafe(24),
            api_key_generated=not api_key,
            workers=int(env.get("SIEGE_WORKERS", "2")),
            durable=env.get("SIEGE_DURABLE", "") in ("1", "true", "yes"),
        )

    @property
    def bind(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        # a wildcard bind is reached on loopback from this machine
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else "[::1]" if self.host == "::" else self.host
        return f"http://{host}:{self.port}"
