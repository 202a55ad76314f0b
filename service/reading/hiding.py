"""Hidden orders (EP-ORDER-05): what of a battle each reader is shown until a reveal, as pure functions.

The log, the stored outcomes and the fold are the same for everyone; only the views differ. Until a reveal
(epic: an applied `advance_phase` out of `orders`; any ruleset: an applied `conclude`) a hidden command's
entry is shown to every reader but the GM and the side that sent it as its version, type, actor, time and
hashes only, and the state without the orders that reader may not see."""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from eventstore.canonical import canonical_json
from rules.epic.refs import GATE_OWNER
from rules.fold import CONCLUDE
from service.access.tokens import GM, SIDE, SIDE_PREFIX

HIDDEN = "hidden"  # the member that marks a hidden entry or outcome, and the value of an order withheld
APPLIED = "applied"
SALT = "salt-"  # the idempotency key the service gives a hidden command sent without one
Game = dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class Reader:
    """Who reads: the GM sees everything; a side its own entries; an observer what every reader sees."""

    sees_all: bool
    side: str | None = None

    @property
    def key(self) -> str:
        """Names the view of a state this reader is shown (an ETag qualifier)."""
        return "gm" if self.sees_all else f"side-{self.side}" if self.side else "observer"


EVERYTHING = Reader(sees_all=True)


def reader_of(role: str, side: str | None) -> Reader:
    return Reader(sees_all=role == GM, side=side if role == SIDE else None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Secrecy:
    """A ruleset's hidden commands, the commands whose outcomes may reveal them, and how its state hides
    what they set."""

    commands: frozenset[str]
    revealers: frozenset[str]  # the command types `reveals` may answer true for (a cheap filter of the log)
    reveals: Callable[[Mapping[str, Any]], bool]
    blank: Callable[[Game, str | None, str | None], Game]  # every order `side` does not own set to a marker


def _epic_reveals(outcome: Mapping[str, Any]) -> bool:
    result = outcome.get("result") or {}
    return outcome.get("type") == "advance_phase" and result.get("revealed_orders") is not None


def _epic_blank(game: Game, side: str | None, marker: str | None) -> Game:
    """Stands are their side's, gates the defender's: every other order is withheld (walls have none)."""
    stands = [s if s.get("side") == side else {**s, "order": marker} for s in game.get("stands", [])]
    sections = [
        s if s.get("kind") != "gate" or side == GATE_OWNER else {**s, "order": marker}
        for s in game.get("sections", [])
    ]
    return {**game, "stands": stands, "sections": sections}


POLICIES: dict[str, Secrecy] = {
    "epic": Secrecy(
        commands=frozenset({"give_order"}),
        revealers=frozenset({"advance_phase", CONCLUDE}),
        reveals=_epic_reveals,
        blank=_epic_blank,
    )
}


def secrecy(ruleset: str) -> Secrecy | None:
    """None for a ruleset that hides nothing."""
    return POLICIES.get(ruleset)


def reveals(policy: Secrecy, outcome: Mapping[str, Any]) -> bool:
    """An applied reveal: the ruleset's, or a `conclude` (the battle is over, the seed revealed: everyone
    may verify everything)."""
    if outcome.get("status") != APPLIED:
        return False
    return outcome.get("type") == CONCLUDE or policy.reveals(outcome)


def salt(ruleset: str, kind: str) -> str | None:
    """128 random bits for a hidden command sent without an Idempotency-Key, recorded as its key: the
    entry's hash then covers a secret no reader can guess, so nobody can hash the few possible orders and
    targets to find the one given."""
    policy = secrecy(ruleset)
    return SALT + secrets.token_hex(16) if policy is not None and kind in policy.commands else None


def giver(actor: str) -> str | None:
    """The side that sent an entry (`side:attacker/tok_…` → `attacker`); None for the GM and the service."""
    role = actor.partition("/")[0]
    return role.removeprefix(SIDE_PREFIX) if role.startswith(SIDE_PREFIX) else None


def sees(reader: Reader, actor: str) -> bool:
    return reader.sees_all or (reader.side is not None and giver(actor) == reader.side)


@dataclass(frozen=True, slots=True, kw_only=True)
class Kept:
    """A hidden command's entry after the last reveal."""

    version: int
    actor: str
    applied: bool | None  # None while its outcome is pending


@dataclass(frozen=True, slots=True, kw_only=True)
class Secrets:
    """What of one battle is hidden now: its hidden commands' entries after the last reveal."""

    commands: frozenset[str]
    revealed_upto: int  # the last reveal's version (0: none yet): every entry up to it is revealed
    kept: tuple[Kept, ...]

    def hides(self, reader: Reader, version: int, kind: str, actor: str) -> bool:
        return kind in self.commands and version > self.revealed_upto and not sees(reader, actor)

    def hidden_from(self, reader: Reader) -> list[Kept]:
        return [k for k in self.kept if not sees(reader, k.actor)]

    def blanks(self, reader: Reader, upto: int) -> bool:
        """Whether the state at `upto` may hold an order the reader may not see: one that was given (applied
        or still pending) by another, unrevealed. Withholding every order not the reader's then says nothing
        of which entities were ordered."""
        return any(k.version <= upto and k.applied is not False for k in self.hidden_from(reader))


def hidden_entry(view: Mapping[str, Any], outcome: Mapping[str, Any] | None) -> dict[str, Any]:
    """An entry shown hidden: what the chain needs (version, type, actor, time, both hashes), nothing of
    the command (its data, its dice, its idempotency key, which would let a reader test guesses against
    the hash)."""
    shown = {**view, "data": None, "dice": None, "idempotency_key": None, HIDDEN: True}
    shown["outcome"] = None if outcome is None else hidden_outcome(outcome)
    return shown


def hidden_outcome(outcome: Mapping[str, Any]) -> dict[str, Any]:
    """An outcome shown hidden: not even whether it applied (a rejection's reason would tell the target)."""
    return {
        "version": outcome.get("version"),
        "type": outcome.get("type"),
        "status": None,
        "reason": None,
        "detail": None,
        "result": None,
        "rolls": [],
        "changes": None,
        "hash": outcome.get("hash"),
        HIDDEN: True,
    }


def view_qualifier(hidden_versions: Sequence[int]) -> str | None:
    """The ETag qualifier of a page hiding these versions: readers shown the same bytes share a tag, and a
    reveal changes it."""
    if not hidden_versions:
        return None
    listed = ",".join(str(v) for v in hidden_versions)
    return f"{HIDDEN}-{hashlib.sha256(listed.encode()).hexdigest()[:16]}"


def blanked_state(state_json: str, policy: Secrecy, reader: Reader) -> str:
    """A stored state (canonical JSON) with every order the reader does not own shown as `"hidden"`."""
    state = json.loads(state_json)
    state["game"] = policy.blank(state["game"], reader.side, HIDDEN)
    return canonical_json(state)
