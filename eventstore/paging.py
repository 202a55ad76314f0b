"""Reading a battle's stored outcomes page by page, so checking a long battle never holds them all at once."""

from __future__ import annotations

from collections.abc import Iterator

from eventstore.protocol import EventStore

BATCH = 500  # outcomes read per round trip: memory stays flat however long the battle


def iter_outcomes(
    store: EventStore, battle_id: str, upto: int, *, batch: int = BATCH
) -> Iterator[tuple[int, str]]:
    """The stored outcomes of versions 1..upto, in version order, as their canonical JSON text."""
    after = 0
    while after < upto:
        page = store.outcomes(battle_id, after=after, limit=min(batch, upto - after))
        if not page:
            return
        yield from page
        after = page[-1][0]
