"""Rate budgets counted in a battle's own keys (eventstore/lua/rate.lua): the keys and arguments the append
and spend scripts count them with, and what their reply says was spent."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventstore import keys
from eventstore.records import BATTLE_OWNER, Budget, Spent


def counters(battle_id: str, budget: Budget | None) -> list[str]:
    return [keys.rate(battle_id, owner, w.seconds) for owner, w in budget.counted()] if budget else []


def windows(budget: Budget | None) -> list[int]:
    """The script's arguments for `budget`: how many windows, then (amount, ms) for each."""
    found = [w for _owner, w in budget.counted()] if budget else []
    return [len(found), *(n for w in found for n in (w.amount, w.seconds * 1000))]


def spent_of(budget: Budget | None, reply: Sequence[Any]) -> Spent | None:
    """A script's (window index from 1, left, reset ms) as a Spent; None when nothing was counted."""
    index, left, reset_ms = (int(n) for n in reply[:3])
    if budget is None or index == 0:
        return None
    owner, window = budget.counted()[index - 1]
    return Spent(window=window, left=left, reset_s=reset_ms / 1000, shared=owner == BATTLE_OWNER)
