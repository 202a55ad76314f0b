"""Folding a battle's stored history: the one helper projection, replay, audit and time travel call.

It sits in rules beside `project` and reads nothing itself: rules performs no I/O (invariant 8) and
eventstore may not import rules, so the caller hands over the entries (`eventstore.paging.history` pages
them out of the store) and a way to read the battle's seeds, asked for only once there is an entry."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import chain
from typing import Any

from rules.codec import JSON
from rules.fold import Battle, LogEntry, Rewind, Seeds, project


def battle_seeds(server_seed_hex: str, created: Mapping[str, JSON]) -> Seeds:
    """A battle's dice seeds: its secret and the client seed its creation (version 1's data) recorded."""
    return Seeds(
        server_seed=bytes.fromhex(server_seed_hex), client_seed=str(created.get("client_seed") or "")
    )


def fold_history(
    battle: Battle[Any] | None,
    entries: Iterable[LogEntry],
    seeds: Callable[[], Seeds],
    rewind: Rewind | None = None,
) -> Iterator[tuple[Battle[Any], dict[str, JSON]]]:
    """`project` the entries after `battle` (None: from version 1) onto it, yielding each state and outcome;
    a battle with nothing new costs no read of its seeds."""
    pending = iter(entries)
    first = next(pending, None)
    if first is None:
        return
    yield from project(battle, chain((first,), pending), seeds(), rewind)


def state_after(
    battle: Battle[Any] | None,
    entries: Iterable[LogEntry],
    seeds: Callable[[], Seeds],
    rewind: Rewind | None = None,
) -> Battle[Any] | None:
    """The last state `fold_history` reaches: `battle` itself when there is nothing to fold."""
    last = battle
    for state, _outcome in fold_history(battle, entries, seeds, rewind):
        last = state
    return last
