"""Webhook settings, read from the environment by `from_env` only: the API and the worker read the same."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from webhooks.guard import Allow, parse_allow


@dataclass(frozen=True, slots=True, kw_only=True)
class WebhookSettings:
    allow: Allow = field(default_factory=Allow)  # SIEGE_WEBHOOK_ALLOW: hosts and CIDR ranges let through
    # SIEGE_WEBHOOK_TIMEOUT_S: each step (connect, send, each read of the answer), and the whole exchange
    timeout_s: float = 10.0
    # SIEGE_WEBHOOK_RESOLVE_TIMEOUT_S: resolving the host, at registration and delivery
    resolve_timeout_s: float = 2.0
    retry_base_s: float = 5.0  # SIEGE_WEBHOOK_RETRY_BASE_S: the first retry waits at most this long
    retry_max_s: float = 3600.0  # SIEGE_WEBHOOK_RETRY_MAX_S: the longest wait between two attempts
    retry_for_s: float = 24 * 3600.0  # SIEGE_WEBHOOK_RETRY_FOR_S: failing this long marks the webhook failed
    public_url: str = ""  # SIEGE_PUBLIC_URL: the API's base URL, for each event's `source`

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> WebhookSettings:
        env = os.environ if environ is None else environ
        base = cls()
        return cls(
            allow=parse_allow(env.get("SIEGE_WEBHOOK_ALLOW") or ""),
            timeout_s=_read(env, "SIEGE_WEBHOOK_TIMEOUT_S", base.timeout_s, minimum=0.01),
            resolve_timeout_s=_read(
                env, "SIEGE_WEBHOOK_RESOLVE_TIMEOUT_S", base.resolve_timeout_s, minimum=0.01
            ),
            retry_base_s=_read(env, "SIEGE_WEBHOOK_RETRY_BASE_S", base.retry_base_s, minimum=0.01),
            retry_max_s=_read(env, "SIEGE_WEBHOOK_RETRY_MAX_S", base.retry_max_s, minimum=0.01),
            retry_for_s=_read(env, "SIEGE_WEBHOOK_RETRY_FOR_S", base.retry_for_s, minimum=0),
            public_url=(env.get("SIEGE_PUBLIC_URL") or "").rstrip("/"),
        )

    def source(self, battle_id: str) -> str:
        """The battle's URL: absolute under SIEGE_PUBLIC_URL, else the URI reference `/battles/{id}`."""
        return f"{self.public_url}/battles/{battle_id}"


def _read(env: Mapping[str, str], name: str, fallback: float, *, minimum: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return fallback
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {raw!r}") from None
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {raw!r}")
    return value
