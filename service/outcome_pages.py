"""Stored outcomes read page by page, so checking a long battle never holds its outcomes all at once."""

from __future__ import annotations

from collections.abc import Iterator

from eventstore.protocol import EventStore

BATCH = 500  # log entries or outcomes read per round trip: memory stays flat however long the battle


def stored_outcomes(store: EventStore, battle_id: str, upto: int) -> Iterator[tuple[int, str]]:
    """The stored outcomes of versions 1..upto, in version order, as their canonical JSON text."""
    after = 0
    while after < upto:
        page = store.outcomes(battle_id, after=after, limit=min(BATCH, upto - after))
        if not page:
            return
        yield from page
        after = page[-1][0]
