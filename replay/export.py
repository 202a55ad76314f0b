"""A battle as JSON Lines of CloudEvents, read page by page from the store: memory stays flat however long
the battle. The HTTP export and `siege export` both write these lines."""

from __future__ import annotations

from collections.abc import Iterator

from eventstore.paging import history, iter_outcomes
from eventstore.roles import Log
from replay.export_format import event_line, source_of


def export_lines(store: Log, battle_id: str, *, upto: int | None = None) -> Iterator[bytes]:
    """Versions 1..upto (default: the head when called), each with its stored outcome (null while the
    workers have not projected it: those are the last ones)."""
    head = store.head(battle_id).version if upto is None else upto
    source = source_of(battle_id)
    outcomes = iter_outcomes(store, battle_id, head)
    stored = next(outcomes, None)
    for entry in history(store, battle_id, upto=head):
        outcome = None
        if stored is not None and stored[0] == entry.version:
            outcome, stored = stored[1], next(outcomes, None)
        yield event_line(source, entry, outcome)
