"""The wire form of log entries: the stored entry with its outcome joined in (null while pending)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from eventstore.records import StoredEntry
from eventstore.roles import Log
from service.http.etags import etag
from service.reading.hiding import HIDDEN, hidden_entry, view_qualifier
from service.reading.reveals import Sight
from summaries import DEFAULT, summarized


@dataclass(frozen=True, slots=True, kw_only=True)
class Telling:
    """How outcomes are told in one answer: the battle's ruleset and the request's language."""

    ruleset: str
    language: str


def event_view(entry: StoredEntry, outcome: str | None, telling: Telling, sight: Sight) -> dict[str, Any]:
    """The entry and its outcome told in the answer's language; hidden from a reader it is hidden from."""
    view = asdict(entry)
    decided = None if outcome is None else json.loads(outcome)
    if sight.hides(entry.version, entry.type, entry.actor):
        view = hidden_entry(view, decided)
        told = view["outcome"]
        command: dict[str, Any] = {}
    else:
        told, command = decided, entry.data
    view["outcome"] = None if told is None else summarized(telling.ruleset, told, command, telling.language)
    return view


def one_event(
    store: Log, battle_id: str, version: int, telling: Telling, sight: Sight
) -> dict[str, Any] | None:
    if not 1 <= version <= store.head(battle_id).version:
        return None
    entry = store.entry(battle_id, version)
    return None if entry is None else event_view(entry, store.outcome(battle_id, version), telling, sight)


@dataclass(frozen=True, slots=True, kw_only=True)
class Page:
    events: list[dict[str, Any]]
    more: bool  # entries follow the last one
    etag: str


def event_etag(event: dict[str, Any], language: str) -> str:
    """The entry's chain hash, qualified while its outcome is pending, and while it is shown hidden."""
    pending = "pending" if event["outcome"] is None else None
    return in_language(
        etag(event["hash"], qualified(pending, HIDDEN if event.get(HIDDEN) else None)), language
    )


def qualified(*parts: str | None) -> str | None:
    """ETag qualifiers joined (`pending2/hidden-…`); None when there is none."""
    return "/".join(part for part in parts if part) or None


def in_language(tag: str, language: str) -> str:
    """A summary in another language is another representation: its tag says the language (`"…/fr"`)."""
    return tag if language == DEFAULT else f'{tag[:-1]}/{language}"'


def page_of(store: Log, battle_id: str, after: int, limit: int, telling: Telling, sight: Sight) -> Page:
    """Entries after `after` (at most `limit`), whether more follow them, and the page's tag: the last
    entry's chain hash (the head's for an empty page), qualified by how many outcomes are pending and by
    which entries are shown hidden (a reveal, or another reader's view, is another representation)."""
    head = store.head(battle_id)
    if after >= head.version:  # also keeps absurd versions away from Redis stream ids
        return Page(events=[], more=False, etag=in_language(etag(head.hash), telling.language))
    entries = store.read(battle_id, after=after, limit=limit)
    outcomes = dict(store.outcomes(battle_id, after=after, limit=limit))
    events = [event_view(e, outcomes.get(e.version), telling, sight) for e in entries]
    pending = sum(1 for event in events if event["outcome"] is None)
    hidden = view_qualifier([event["version"] for event in events if event.get(HIDDEN)])
    last = events[-1]["hash"] if events else head.hash
    tag = in_language(
        etag(last, qualified(f"pending{pending}" if pending else None, hidden)), telling.language
    )
    return Page(events=events, more=bool(entries) and entries[-1].version < head.version, etag=tag)
