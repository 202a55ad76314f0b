"""Reading a battle's log and stored outcomes page by page: no fold or check holds a long battle at once."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from eventstore.records import StoredEntry

if TYPE_CHECKING:  # the in-browser verifier imports this module without the store's roles
    from eventstore.roles import Log

BATCH = 500  # entries or outcomes read per round trip: memory stays flat however long the battle


def history(
    store: Log, battle_id: str, *, after: int = 0, upto: int | None = None, read_ahead: bool = False
) -> Iterator[StoredEntry]:
    """The log after version `after` (to `upto` inclusive), as every fold of stored history reads it;
    `read_ahead` for a fold that reads to the end at once (`Log.iter_entries`)."""
    return store.iter_entries(battle_id, after=after, upto=upto, batch=BATCH, read_ahead=read_ahead)


def iter_outcomes(store: Log, battle_id: str, upto: int, *, batch: int = BATCH) -> Iterator[tuple[int, str]]:
    """The stored outcomes of versions 1..upto, in version order, as their canonical JSON text."""
    after = 0
    while after < upto:
        page = store.outcomes(battle_id, after=after, limit=min(batch, upto - after))
        if not page:
            return
        yield from page
        after = page[-1][0]


def with_entries(
    store: Log, battle_id: str, outcomes: Sequence[tuple[int, str]]
) -> list[tuple[StoredEntry, str]]:
    """Stored outcomes of consecutive versions, each with the log entry it decides (read in one call): what
    the stream and the webhooks summarise."""
    if not outcomes:
        return []
    entries = store.read(battle_id, after=outcomes[0][0] - 1, limit=len(outcomes))
    by_version = {entry.version: entry for entry in entries}
    return [(by_version[version], raw) for version, raw in outcomes]
