"""Rate limits of the callers no battle counts (the service key, an address) by flask-limiter, in Redis: one
budget per caller across every endpoint, advertised on every answer it applies to with the IETF draft's
`RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers-09). A battle token's
budget on its battle's paths is counted with its battle instead (service/access/battle_budgets.py)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from flask import Blueprint, Flask, Response, request
from flask_limiter import Limiter, RequestLimit

from service.access import auth, battle_budgets
from service.config import ServiceConfig
from service.http.problems import Problem

STRATEGY = "fixed-window"  # one counter per window and caller: one round trip, nothing to prune
COUNTER_TIMEOUT_S = 1  # a counter is one round trip: an unreachable Redis must not hold the request
POLICY_HEADER, STATE_HEADER, POLICY = (
    battle_budgets.POLICY_HEADER,
    battle_budgets.STATE_HEADER,
    battle_budgets.POLICY,
)
Passed = TypeVar("Passed")  # what a hook is handed and hands back: a response, or a teardown's error


class CallerLimiter(Limiter):
    """flask-limiter for the callers whose budget is not counted with a battle: a battle token's request
    leaves it at once, before it works out which limits, scopes and exemptions apply (~5 % of a command)."""

    def _check_request_limit(self, callable_name: str | None = None, in_middleware: bool = True) -> None:
        if not battle_budgets.counted_here():
            super()._check_request_limit(callable_name, in_middleware)


def install(app: Flask, config: ServiceConfig, *exempt: Blueprint) -> Limiter:
    """Call after `auth.install`: the budget is the authenticated token's, or the caller address's."""
    limiter = CallerLimiter(
        key_func=_budget,
        app=app,
        application_limits=[config.rate_limit] if config.rate_limited else [],
        storage_uri=config.rate_limit_storage_uri,
        strategy=STRATEGY,
        headers_enabled=False,  # they would stamp a Retry-After on every answer; a breach says its own
        on_breach=_breached,
        # counters unreachable: count in this process's memory (one warning, no 500), and go back to Redis
        # once it answers again (flask-limiter re-checks it with backoff, at most every 32 s)
        in_memory_fallback_enabled=True,
        swallow_errors=True,  # whatever else goes wrong with the counters: serve rather than fail
        storage_options=_storage_options(config.rate_limit_storage_uri),
        key_prefix="siege-limits",
        enabled=config.rate_limited,
    )
    limiter.request_filter(lambda: request.method == "OPTIONS")  # preflights carry no token
    for blueprint in exempt:
        limiter.exempt(blueprint)
    _skip_battle_tokens(app, limiter)
    if config.rate_limited:
        app.after_request(lambda response: _advertise(limiter, response))
    return limiter


def _skip_battle_tokens(app: Flask, limiter: Limiter) -> None:
    """flask-limiter's after-request and teardown hooks have nothing to do for a request its before-request
    hook left at once (a battle token's): they are skipped for it too, not run to find nothing (~2 %)."""
    for hooks in (app.after_request_funcs[None], app.teardown_request_funcs[None]):
        hooks[:] = [_for_callers(hook) if _belongs(hook, limiter) else hook for hook in hooks]


def _belongs(hook: Callable[..., Any], limiter: Limiter) -> bool:
    """A method of the limiter, or the partial it registers its name-mangled method as."""
    bound = hook.args[:1] == (limiter,) if isinstance(hook, partial) else False
    return bound or getattr(hook, "__self__", None) is limiter


def _for_callers(hook: Callable[[Passed], Passed]) -> Callable[[Passed], Passed]:
    return lambda passed: passed if battle_budgets.counted_here() else hook(passed)


def _advertise(limiter: Limiter, response: Response) -> Response:
    """`RateLimit-Policy: "per-token";q=1200;w=60` and `RateLimit: "per-token";r=<left>;t=<seconds>` where
    the budget was counted (not on exempt paths or preflights); reading the window costs the counter store
    one more round trip, and an unreachable store costs the headers, never the answer."""
    if battle_budgets.counted_here():
        return response  # battle_budgets._settle advertised the battle's count
    current = limiter.current_limit
    if current is None:
        return response
    item = current.limit
    response.headers[POLICY_HEADER] = f'"{POLICY}";q={item.amount};w={item.get_expiry()}'
    try:
        reset_at, remaining = current.window
    except Exception:  # the counters' Redis went away after the hit: answer without the live field
        return response
    wait_s = min(item.get_expiry(), max(0, math.ceil(reset_at - time.time())))
    response.headers[STATE_HEADER] = f'"{POLICY}";r={max(0, remaining)};t={wait_s}'
    return response


def _breached(limit: RequestLimit) -> Response:
    wait_s = max(1, math.ceil(limit.reset_at - time.time()))
    detail = f"This token's budget is {limit.limit}; it refills in {wait_s} s."
    return Problem(
        429, "rate-limited", "Too many requests", detail, headers={"Retry-After": str(wait_s)}
    ).response()


def _budget() -> str:
    principal = auth.current()
    if principal.token_id is not None:
        return f"token:{principal.token_id}"
    if principal.role == auth.SERVICE:
        return "service-key"
    return f"address:{request.remote_addr or 'unknown'}"


def _storage_options(uri: str) -> dict[str, str | int]:
    redis_like = uri.split(":", 1)[0] in ("redis", "rediss", "redis+sentinel", "redis+cluster")
    return (
        {"socket_timeout": COUNTER_TIMEOUT_S, "socket_connect_timeout": COUNTER_TIMEOUT_S}
        if redis_like
        else {}
    )
