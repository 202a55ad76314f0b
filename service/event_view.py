"""The wire form of log entries: the stored entry with its outcome joined in (null while pending)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from eventstore.protocol import EventStore, StoredEntry


def event_view(entry: StoredEntry, outcome: str | None) -> dict[str, Any]:
    view = asdict(entry)
    view["outcome"] = json.loads(outcome) if outcome is not None else None
    return view


def one_event(store: EventStore, battle_id: str, version: int) -> dict[str, Any] | None:
    if not 1 <= version <= store.head(battle_id).version:
        return None
    entry = store.entry(battle_id, version)
    return None if entry is None else event_view(entry, store.outcome(battle_id, version))


def page_of(store: EventStore, battle_id: str, after: int, limit: int) -> tuple[list[dict[str, Any]], bool]:
    """Entries after `after` (at most `limit`) and whether more follow them."""
    head = store.head(battle_id).version
    if after >= head:  # also keeps absurd versions away from Redis stream ids
        return [], False
    entries = store.read(battle_id, after=after, limit=limit)
    outcomes = dict(store.outcomes(battle_id, after=after, limit=limit))
    page = [event_view(e, outcomes.get(e.version)) for e in entries]
    return page, bool(entries) and entries[-1].version < head
