"""Finding, in a battle's stored outcomes, its last reveal and the hidden commands after it
(service/reading/hiding.py says what a reader is then shown); each process remembers how far it read, since a
reveal stays one.

Stored outcomes never change once written (a replay writes the same bytes), so what was read stays true;
the first read of a battle goes back from its projected version until it meets a reveal, every later one
reads only the outcomes written since, and the entries still pending."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from eventstore.roles import Log
from service.reading.hiding import EVERYTHING, Kept, Reader, Secrecy, Secrets, reveals, secrecy

WINDOW = 200  # outcomes or entries read per round trip
PENDING_PAGES = 10  # pending entries read at most; past them the tail counts as hiding something
UNKNOWN = ""  # the actor of a tail not read: no reader but the GM sees it


@dataclass(frozen=True, slots=True, kw_only=True)
class _Read:
    scanned: int  # stored outcomes read up to this version
    revealed_upto: int
    kept: tuple[Kept, ...]  # the hidden commands' entries in (revealed_upto, scanned]


class Reveals:
    """Per process, bounded (oldest battle first out)."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._read: dict[str, _Read] = {}
        self._lock = threading.Lock()

    def secrets(self, store: Log, battle_id: str, policy: Secrecy) -> Secrets:
        known = self._read.get(battle_id) or _first(store, battle_id, policy)
        read = _forward(store, battle_id, policy, known)
        with self._lock:
            held = self._read.get(battle_id)
            if held is None or held.scanned < read.scanned:
                if held is None and len(self._read) >= self._size:
                    self._read.pop(next(iter(self._read)))
                self._read[battle_id] = read
        pending = _pending(store, battle_id, policy, read.scanned)
        return Secrets(commands=policy.commands, revealed_upto=read.revealed_upto, kept=read.kept + pending)

    def sight(self, store: Log, battle_id: str, ruleset: str, reader: Reader) -> Sight:
        policy = secrecy(ruleset)
        if policy is None or reader.sees_all:
            return Sight(reader, None, lambda: None)  # nothing to hide from it: no read
        return Sight(reader, policy, lambda: self.secrets(store, battle_id, policy))


class Sight:
    """What one reader may see of one battle, for one answer: the store is read once, and only if
    something the reader reads could be hidden from it."""

    @classmethod
    def of_gm(cls) -> Sight:
        """Everything: the GM's, the export's and the webhooks' view."""
        return cls(EVERYTHING, None, lambda: None)

    def __init__(self, reader: Reader, policy: Secrecy | None, load: Callable[[], Secrets | None]) -> None:
        self.reader = reader
        self.policy = policy
        self._load = load
        self._secrets: Secrets | None = None

    @property
    def secrets(self) -> Secrets | None:
        if self._secrets is None:
            self._secrets = self._load()
        return self._secrets

    def hides(self, version: int, kind: str, actor: str) -> bool:
        if self.policy is None or kind not in self.policy.commands:
            return False  # no read of the store
        secrets = self.secrets
        return secrets is not None and secrets.hides(self.reader, version, kind, actor)

    def blanks(self, upto: int) -> bool:
        secrets = self.secrets if self.policy is not None else None
        return secrets is not None and secrets.blanks(self.reader, upto)

    def withheld(self) -> list[Kept]:
        """The entries hidden from this reader now."""
        secrets = self.secrets if self.policy is not None else None
        return [] if secrets is None else secrets.hidden_from(self.reader)


def _first(store: Log, battle_id: str, policy: Secrecy) -> _Read:
    """Back from the projected version, a window at a time, to the last reveal."""
    projected = store.projected_version(battle_id)
    end, kept = projected, list[Kept]()
    while end > 0:
        start = max(0, end - WINDOW)
        rows = store.outcomes(battle_id, after=start, limit=end - start)
        revealed, found = _scan(store, battle_id, policy, rows)
        kept = found + kept
        if revealed:
            return _Read(scanned=projected, revealed_upto=revealed, kept=tuple(kept))
        end = start
    return _Read(scanned=projected, revealed_upto=0, kept=tuple(kept))


def _forward(store: Log, battle_id: str, policy: Secrecy, known: _Read) -> _Read:
    """On from what was read: the outcomes written since."""
    read = known
    while True:
        rows = store.outcomes(battle_id, after=read.scanned, limit=WINDOW)
        if not rows:
            return read
        revealed, found = _scan(store, battle_id, policy, rows)
        kept = tuple(found) if revealed else read.kept + tuple(found)
        read = _Read(scanned=rows[-1][0], revealed_upto=revealed or read.revealed_upto, kept=kept)
        if len(rows) < WINDOW:
            return read


def _scan(
    store: Log, battle_id: str, policy: Secrecy, rows: Sequence[tuple[int, str]]
) -> tuple[int, list[Kept]]:
    """The last reveal among consecutive stored outcomes (0: none), and the hidden commands after it."""
    revealed, statuses = 0, dict[int, bool]()
    for version, raw in rows:
        if not any(kind in raw for kind in policy.revealers | policy.commands):
            continue  # the type's name is not even in the text: no parse
        outcome = json.loads(raw)
        if reveals(policy, outcome):
            revealed, statuses = version, {}
        elif outcome.get("type") in policy.commands:
            statuses[version] = outcome.get("status") == "applied"
    return revealed, _with_actors(store, battle_id, statuses)


def _with_actors(store: Log, battle_id: str, statuses: dict[int, bool]) -> list[Kept]:
    if not statuses:
        return []
    first, last = min(statuses), max(statuses)
    entries = store.read(battle_id, after=first - 1, limit=last - first + 1)
    actors = {entry.version: entry.actor for entry in entries}
    return [Kept(version=v, actor=actors.get(v, UNKNOWN), applied=applied) for v, applied in statuses.items()]


def _pending(store: Log, battle_id: str, policy: Secrecy, scanned: int) -> tuple[Kept, ...]:
    """The hidden commands among the entries no outcome was read for yet."""
    kept: list[Kept] = []
    after = scanned
    for _ in range(PENDING_PAGES):
        entries = store.read(battle_id, after=after, limit=WINDOW)
        kept += [
            Kept(version=e.version, actor=e.actor, applied=None) for e in entries if e.type in policy.commands
        ]
        if len(entries) < WINDOW:
            return tuple(kept)
        after = entries[-1].version
    return (*kept, Kept(version=after + 1, actor=UNKNOWN, applied=None))
