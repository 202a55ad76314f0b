"""Rate budgets of battle tokens, counted in the battle's own keys (the battle's hash tag, so a cluster keeps
them on its slot): a command's inside its append script, in the same round trip; any other request of a
battle token by one `spend` before its view runs. Callers without a battle token (the service key, an
address) stay with flask-limiter (service/access/caller_limits.py). Same budget and fixed windows as
SIEGE_RATE_LIMIT, the same 429 with Retry-After, and the RateLimit fields read from the count itself,
not from another read."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from enum import Enum
from typing import Literal, TypeVar

from flask import Flask, Response, current_app, g, request
from limits import RateLimitItem, parse_many
from redis.exceptions import RedisError

from eventstore.errors import RateLimited
from eventstore.records import Budget, Spent, Window
from service.access import auth
from service.config import ServiceConfig
from service.deps import services
from service.http.problems import Problem

POLICY_HEADER, STATE_HEADER = "RateLimit-Policy", "RateLimit"
POLICY = "per-token"  # each token (or caller address, or the service key) its own budget
SHARED_POLICY = (
    "per-battle"  # and every token of a battle one more, shared: minting tokens multiplies nothing
)
SHARED = "siege-battle-budgets"
ATTRIBUTE = "siege_counts_in_append"
SPENT, BUDGET, TRIED = "siege_spent", "siege_budget", "siege_spend_tried"
STORE_DOWN = 503  # service/http/problems.store_unavailable's status


class _Unset(Enum):
    UNSET = "unset"  # this request's budget is not worked out yet: a member mypy can narrow away


Unset = Literal[_Unset.UNSET]
UNKNOWN: Unset = _Unset.UNSET
View = TypeVar("View", bound=Callable[..., object])
log = logging.getLogger(__name__)


def counted_in_append(view: View) -> View:
    """The view's store call counts the budget itself (an AppendRequest's `budget`) and `note`s it."""
    setattr(view, ATTRIBUTE, True)
    return view


def install(app: Flask, config: ServiceConfig) -> None:
    """Call after `auth.install`: the budget is the authenticated token's."""
    if not config.rate_limited:
        return
    items = {_window(item): item for item in parse_many(config.rate_limit)}
    app.extensions["siege-budgets"] = items
    shared = () if not config.battle_rate_limited else parse_many(config.battle_rate_limit)
    app.extensions[SHARED] = {_window(item): item for item in shared}
    app.before_request(_spend_first)
    app.after_request(_settle)
    app.register_error_handler(RateLimited, lambda error: rate_limited(error.spent).response())


def budget() -> Budget | None:
    """The budget this request spends in its battle's keys: a battle token's, where limits apply (worked
    out once per request: every hook asks)."""
    found: Budget | Unset | None = g.get(BUDGET, UNKNOWN)  # one look-up through the proxy: hooks ask often
    if found is not UNKNOWN:
        return found
    items: dict[Window, RateLimitItem] | None = current_app.extensions.get("siege-budgets")
    principal = auth.current()
    counted = items and principal.token_id is not None and _battle() is not None
    owner = f"token:{principal.token_id}"
    shared = tuple(current_app.extensions.get(SHARED) or ())
    worked: Budget | None = g.setdefault(
        BUDGET, Budget(owner=owner, windows=tuple(items), shared=shared) if counted and items else None
    )
    return worked


def note(spent: Spent | None) -> None:
    """What the store counted for this request; answers then carry it, and nothing counts it again."""
    if spent is not None:
        g.setdefault(SPENT, spent)


def rate_limited(spent: Spent) -> Problem:
    wait_s = max(1, math.ceil(spent.reset_s))
    whose = "This battle's budget, shared by all its tokens," if spent.shared else "This token's budget"
    item = current_app.extensions[SHARED if spent.shared else "siege-budgets"][spent.window]
    detail = f"{whose} is {item}; it refills in {wait_s} s."
    slug = "battle-rate-limited" if spent.shared else "rate-limited"
    return Problem(429, slug, "Too many requests", detail, headers={"Retry-After": str(wait_s)})


def counted_here() -> bool:
    """flask-limiter leaves these requests alone: their budget lives with their battle."""
    return budget() is not None


def _spend_first() -> None:
    view = current_app.view_functions.get(request.endpoint or "")
    found = budget()
    if found is None or getattr(view, ATTRIBUTE, False):
        return
    spent = _spend(found)
    note(spent)
    if spent is not None and spent.breached:
        raise RateLimited(spent)


def _settle(response: Response) -> Response:
    """A command refused before its append script ran (a body that fits no schema, a stale If-Match) is
    counted now, as a limiter in front would have: past the budget, its answer is the 429."""
    found = budget()
    if found is None:
        return response
    spent: Spent | None = g.get(SPENT)
    if spent is None:
        # a store that just failed this request (503) or its count is not asked again: one wait is enough
        if TRIED in g or response.status_code == STORE_DOWN:
            return response
        spent = _spend(found)
        if spent is None:
            return response
        g.setdefault(SPENT, spent)
        if spent.breached:
            response = rate_limited(spent).response()
    _advertise(response, spent)
    return response


def _advertise(response: Response, spent: Spent) -> None:
    """`RateLimit-Policy: "per-token";q=1200;w=60` and `RateLimit: "per-token";r=<left>;t=<seconds>`
    (draft-ietf-httpapi-ratelimit-headers-09), for the window closest to its end."""
    window, policy = spent.window, SHARED_POLICY if spent.shared else POLICY
    response.headers[POLICY_HEADER] = f'"{policy}";q={window.amount};w={window.seconds}'
    wait_s = min(window.seconds, max(0, math.ceil(spent.reset_s)))
    response.headers[STATE_HEADER] = f'"{policy}";r={max(0, spent.left)};t={wait_s}'


def _spend(found: Budget) -> Spent | None:
    """An unreachable store costs the count, never the answer (as flask-limiter's swallowed errors)."""
    battle_id = _battle()
    g.setdefault(TRIED, True)
    try:
        return services().access.spend(str(battle_id), found) if battle_id else None
    except (RedisError, OSError) as error:
        log.warning("could not count the rate budget of %s: %s", battle_id, error)
        return None


def _battle() -> str | None:
    found = (request.view_args or {}).get("battle_id")
    return None if found is None else str(found)


def _window(item: RateLimitItem) -> Window:
    return Window(amount=item.amount, seconds=item.get_expiry())
