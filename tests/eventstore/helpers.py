"""Builders for log entries and battles shared by the event-store tests."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from eventstore.records import AppendRequest, ImportRequest, NewEntry, StoredEntry
from tests.fixtures.redis_server import Backend

SEED = "ab" * 32


def command(kind: str = "fire", *, key: str | None = None, **data: Any) -> NewEntry:
    return NewEntry(
        type=kind,
        data=data or {"engine": "trebuchet-1", "target": "gate"},
        schema_version=1,
        actor="gm",
        idempotency_key=key,
        recorded_at="2026-03-01T12:00:00.000000Z",
        dice={"attack": [17], "damage": [3, 5]},
    )


def appending(battle_id: str, entry: NewEntry, **options: Any) -> AppendRequest:
    """`store.append(appending("b1", command(), fingerprint="f"))`: an append request, options by name."""
    return AppendRequest(battle_id=battle_id, entry=entry, **options)


def importing(
    battle_id: str, entries: Iterable[StoredEntry], server_seed: str, **options: Any
) -> ImportRequest:
    return ImportRequest(battle_id=battle_id, entries=entries, server_seed=server_seed, **options)


def created(name: str = "Siege of Ütrecht") -> NewEntry:
    data = {"ruleset": "epic", "rules_version": "1", "options": {}, "dice_commitment": "c0", "name": name}
    return NewEntry(
        type="battle_created",
        data=data,
        schema_version=1,
        actor="service",
        idempotency_key=None,
        recorded_at="2026-03-01T11:59:59.000000Z",
        dice={},
    )


def battle(store: Backend, battle_id: str = "b1", *, commands: int = 0) -> str:
    """A battle with `commands` commands after battle_created: its head is version 1 + commands."""
    store.create_battle(battle_id, created(), SEED)
    for n in range(commands):
        store.append(appending(battle_id, command(n=n)))
    return battle_id


def eventually(condition: Callable[[], bool], bound_s: float = 10.0) -> bool:
    """Poll until true; the bound only keeps a broken store from hanging the suite."""
    deadline = time.monotonic() + bound_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
