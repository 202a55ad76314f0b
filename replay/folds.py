"""The one place a battle's history is folded out of the store: its seeds, its log read page by page, the
rewinder an undo folds with, the nearest snapshot; the state at any version is built here too.

A battle pinned to rules this release does not fold (`Ruleset.rules_versions`: a battle a newer release
created in the same store) is refused before its first outcome (`UnsupportedRules`), so no outcome of
other rules is ever written; a release that folds them projects it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from eventstore.canonical import canonical_json
from eventstore.errors import UnknownBattle
from eventstore.paging import history
from eventstore.records import Projection, StoredEntry
from rules.codec import JSON
from rules.fold import Battle, LogEntry, Seeds, decode_battle, encode_battle
from rules.history import battle_seeds, fold_history, state_after
from rules.registry import refusal
from rules.undo import Entries, Rewinder

if TYPE_CHECKING:  # the in-browser verifier imports this module without the store's roles
    from eventstore.roles import Folds, Log

SEED_CACHE = 4096  # battles whose seeds one process remembers (they never change)
_seeds: dict[str, Seeds] = {}
_seeds_lock = threading.Lock()


class VersionNotFound(LookupError):
    """A version past the battle's head was asked for."""

    def __init__(self, head: int) -> None:
        super().__init__(f"The battle's head is version {head}.")
        self.head = head


class UnsupportedRules(RuntimeError):
    """The battle's `battle_created` pins rules this release does not fold."""

    def __init__(
        self, battle_id: str, ruleset: str, rules_version: object, supported: tuple[str, ...]
    ) -> None:
        folds = ", ".join(supported) or "no version of it"
        super().__init__(
            f"battle {battle_id} needs rules version {rules_version} of {ruleset}; this release folds {folds}"
        )
        self.battle_id, self.ruleset, self.rules_version, self.supported = (
            battle_id, ruleset, rules_version, supported,
        )  # fmt: skip


def seeds_of(store: Log, battle_id: str, created: StoredEntry | None = None) -> Seeds:
    """The battle's dice seeds, remembered: neither the secret nor version 1's client seed ever change.
    Every fold asks for them before its first outcome: a battle of other rules is refused here."""
    known = _seeds.get(battle_id)
    if known is None:
        created = created or store.entry(battle_id, 1)
        if created is None:
            raise UnknownBattle(battle_id)
        require_folded(battle_id, created.data)
        known = battle_seeds(store.secret(battle_id), created.data)
        with _seeds_lock:  # an API process folds on many threads: one evicts at a time
            if len(_seeds) >= SEED_CACHE:
                del _seeds[next(iter(_seeds))]
            _seeds[battle_id] = known
    return known


def require_folded(battle_id: str, created: Mapping[str, Any]) -> None:
    """UnsupportedRules unless this release folds the rules version `created` (version 1's data) pins."""
    refused = refusal(created)
    if refused is not None:
        raise UnsupportedRules(battle_id, refused.ruleset, refused.rules_version, refused.supported)


def rewinder(store: Log, folds: Folds, battle_id: str, created: StoredEntry | None = None) -> Rewinder:
    """What an `undo` folds its earlier state with: the nearest snapshot, then the log."""

    def start(version: int) -> Battle[Any] | None:
        stored = folds.snapshot_at_or_before(battle_id, version)
        return decode_battle(json.loads(stored.state)) if stored is not None else None

    return Rewinder(_log(store, battle_id), lambda: seeds_of(store, battle_id, created), start)


def fold_entries(
    store: Log,
    folds: Folds,
    battle_id: str,
    battle: Battle[Any] | None,
    entries: Iterable[StoredEntry],
) -> Iterator[tuple[Battle[Any], dict[str, JSON]]]:
    """Fold `entries` (the log after `battle`; None: from version 1) onto it, lazily."""
    seeds = lambda: seeds_of(store, battle_id)  # noqa: E731 - read only if an entry needs dice
    return fold_history(battle, entries, seeds, rewinder(store, folds, battle_id))


def fold_log(
    store: Log, folds: Folds, battle_id: str, battle: Battle[Any] | None, *, upto: int | None = None
) -> Iterator[tuple[Battle[Any], dict[str, JSON]]]:
    """Fold the stored entries after `battle` (None: from version 1), read in batches, never all at once."""
    entries = history(store, battle_id, after=battle.version if battle else 0, upto=upto, read_ahead=True)
    return fold_entries(store, folds, battle_id, battle, entries)


def replay_states(
    store: Log, folds: Folds, battle_id: str, *, upto: int | None = None
) -> Iterator[tuple[Battle[Any], dict[str, JSON]]]:
    """Fold the whole log from version 1, streamed: what the replay verifier compares against."""
    return fold_log(store, folds, battle_id, None, upto=upto)


def fold_afresh(
    store: Log, battle_id: str, created: StoredEntry, upto: int
) -> Iterator[tuple[Battle[Any], dict[str, JSON]]]:
    """Fold 1..upto trusting no stored state, whatever rules the battle pins: its seeds read again, now (so
    a missing secret is no finding about the log), an undo's earlier state folded again from the log too.
    What an audit compares the stored outcomes with."""
    seeds = battle_seeds(store.secret(battle_id), created.data)
    entries = history(store, battle_id, upto=upto, read_ahead=True)
    return fold_history(None, entries, lambda: seeds, Rewinder(_log(store, battle_id), lambda: seeds))


def fold_file(
    entries: Iterable[LogEntry], window: Entries, seeds: Seeds
) -> Iterator[tuple[Battle[Any], dict[str, JSON]]]:
    """Fold a log read from a file (an export), not from the store: an undo reads the file again through
    `window`, so no state is trusted that the file does not prove."""
    return fold_history(None, entries, lambda: seeds, Rewinder(window, lambda: seeds))


def state_at(
    store: Log, folds: Folds, created: StoredEntry, battle_id: str, version: int | None
) -> Projection:
    """The battle at `version` as canonical JSON (None: the current projection, which may lag the log);
    VersionNotFound past the head."""
    projection = folds.projection(battle_id)
    if version is None and projection is not None:
        return projection
    head = store.head(battle_id).version
    target = head if version is None else version
    if target > head:
        raise VersionNotFound(head)
    if projection is not None and projection.version == target:
        return projection
    judged(created)
    battle = _folded(store, folds, created, battle_id, target, projection)
    return Projection(version=target, state=canonical_json(encode_battle(battle)))


def battle_at(store: Log, folds: Folds, created: StoredEntry, battle_id: str, version: int) -> Battle[Any]:
    """The battle at `version` (at most the head), decoded: what the API judges a side's command on."""
    judged(created)
    projection = folds.projection(battle_id)
    if projection is not None and projection.version == version:
        return decode_battle(json.loads(projection.state))
    return _folded(store, folds, created, battle_id, version, projection)


def judged(created: StoredEntry) -> None:
    """UnfoldableRules (a 409) for a battle pinned to rules this release does not fold: its states, stored
    by another release, are neither decoded nor folded again with these rules."""
    refused = refusal(created.data)
    if refused is not None:
        raise refused


def _folded(
    store: Log,
    folds: Folds,
    created: StoredEntry,
    battle_id: str,
    target: int,
    projection: Projection | None,
) -> Battle[Any]:
    snapshot = folds.snapshot_at_or_before(battle_id, target)
    candidates = [p for p in (snapshot, projection) if p is not None and p.version <= target]
    start = max(candidates, key=lambda p: p.version, default=None)
    battle = decode_battle(json.loads(start.state)) if start else None
    entries = history(store, battle_id, after=battle.version if battle else 0, upto=target)
    seeds = lambda: seeds_of(store, battle_id, created)  # noqa: E731 - read only if an entry needs dice
    folded = state_after(battle, entries, seeds, rewinder(store, folds, battle_id, created))
    assert folded is not None, "a battle always has version 1"
    return folded


def _log(store: Log, battle_id: str) -> Entries:
    return lambda after, upto: history(store, battle_id, after=after, upto=upto)
