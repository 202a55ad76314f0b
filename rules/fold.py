"""The one fold over a battle's history: projection, replay, audit and time travel all call `project`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from mypy_extensions import mypyc_attr

from rules import v1
from rules.codec import JSON, encode
from rules.declare import CommandRecord
from rules.dice import Dice, stream_key
from rules.errors import Rejected, UnfoldableRules
from rules.events import event_name
from rules.registry import get_ruleset
from rules.ruleset import Ruleset

C = TypeVar("C")
S = TypeVar("S")
BATTLE_CREATED = "battle_created"
CONCLUDE = "conclude"
UNDO = "undo"
Rewind = Callable[[int], "Battle[Any]"]  # the battle as it stood at an earlier version (rules/undo.py)


class LogEntry(Protocol):
    """What the fold reads of a log entry: `Entry` or the store's own record, which need no copy."""

    @property
    def version(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def data(self) -> Mapping[str, JSON]: ...
    @property
    def dice(self) -> Mapping[str, Any]: ...
    @property
    def hash(self) -> str: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """What the fold needs of one log entry, for callers that have no stored record."""

    version: int
    type: str
    data: Mapping[str, JSON]
    dice: Mapping[str, Any]
    hash: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Seeds:
    """The battle's dice seeds; `server_seed` is secret until `conclude` reveals it."""

    server_seed: bytes
    client_seed: str = ""
    key: bytes = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # derived once per battle, not once per folded entry
        object.__setattr__(self, "key", stream_key(self.server_seed, self.client_seed))


@mypyc_attr(native_class=False)  # a generic dataclass cannot be a compiled class (mypyc#827)
@dataclass(frozen=True, slots=True, kw_only=True)
class Battle(Generic[S]):
    """The projection: a ruleset-neutral header around the ruleset's own state (`Battle[Any]` where the
    ruleset is known only by the name in the header)."""

    ruleset: str
    rules_version: str
    options: Mapping[str, JSON]
    version: int
    concluded: bool
    dice_commitment: str
    game: S
    # the latest applied command an `undo` would cancel (0: none); the battle at `undoable - 1` holds the
    # one before it, so the undo stack is a chain through earlier states and the header stays one int
    undoable: int = 0


def project(
    battle: Battle[Any] | None, entries: Iterable[LogEntry], seeds: Seeds, rewind: Rewind | None = None
) -> Iterator[tuple[Battle[Any], dict[str, JSON]]]:
    """Fold entries onto `battle` (None before version 1), yielding each new state and its outcome;
    `rewind` is asked for an earlier state only by an `undo`."""
    for entry in entries:
        battle, outcome = step(battle, entry, seeds, rewind)
        yield battle, outcome


def step(
    battle: Battle[Any] | None,
    entry: LogEntry,
    seeds: Seeds,
    rewind: Rewind | None = None,
    *,
    dice: Dice | None = None,
) -> tuple[Battle[Any], dict[str, JSON]]:
    """One entry folded; `dice` replaces the battle's own (a preview walks the possible dice with it)."""
    if battle is None:
        return _create(entry)
    if battle.version + 1 != entry.version:
        raise ValueError(f"fold expected version {battle.version + 1}, got {entry.version}")
    as_v1 = battle.rules_version in v1.VERSIONS  # folded as version 1 recorded it: no undo, its shape
    if entry.type == UNDO and not battle.concluded and not as_v1:
        return _undo(battle, entry, rewind)
    ruleset = get_ruleset(battle.ruleset)
    dice = dice or Dice(key=seeds.key, version=entry.version, supplied=entry.dice)
    try:
        game, result, events, command, record = _decide(ruleset, battle, entry, dice, seeds)
        dice.check_counts()
    except Rejected as refusal:
        moved = _advance(battle, entry.version, battle.game, battle.concluded)
        outcome = _outcome(entry, "rejected", refusal.reason, refusal.detail or None, None, [], ())
        return moved, (v1.recorded(outcome, v1.rejected(refusal.reason)) if as_v1 else outcome)
    result = ruleset.applied_result(game, result, dice)
    concluded = battle.concluded or entry.type == CONCLUDE
    new = _advance(battle, entry.version, game, concluded, entry.version)
    rolls = [r.to_wire() for r in dice.rolls]
    outcome = _outcome(entry, "applied", None, None, result, rolls, events)
    if as_v1:
        outcome = v1.recorded(outcome, v1.applied(battle.ruleset, entry.type, command, record))
    return new, outcome


def _undo(battle: Battle[Any], entry: LogEntry, rewind: Rewind | None) -> tuple[Battle[Any], dict[str, JSON]]:
    """The state before the latest undoable command, with its own undo chain: as if it never happened."""
    target = battle.undoable
    if target == 0:
        moved = _advance(battle, entry.version, battle.game, battle.concluded)
        reason = "nothing_to_undo"
        return moved, _outcome(entry, "rejected", reason, None, None, [], ())
    if rewind is None:
        raise ValueError("an undo needs the battle's earlier states: fold with a rewind (rules/undo.py)")
    before = rewind(target - 1)
    new = _advance(battle, entry.version, before.game, battle.concluded, before.undoable)
    result: dict[str, JSON] = {"undone_version": target}
    return new, _outcome(entry, "applied", None, None, result, [], ())


def _advance(
    battle: Battle[Any], version: int, game: Any, concluded: bool, undoable: int | None = None
) -> Battle[Any]:
    # a direct constructor call: dataclasses.replace costs several times more on the fold's hot path
    return Battle(
        ruleset=battle.ruleset,
        rules_version=battle.rules_version,
        options=battle.options,
        version=version,
        concluded=concluded,
        dice_commitment=battle.dice_commitment,
        game=game,
        undoable=battle.undoable if undoable is None else undoable,
    )


def _decide(
    ruleset: Ruleset[Any, Any, Any], battle: Battle[Any], entry: LogEntry, dice: Dice, seeds: Seeds
) -> tuple[Any, dict[str, JSON], tuple[Any, ...], object, object]:
    """The state after the entry, its encoded result and events, and the command and result records (what
    a version 1 summary is told from; None for `conclude`)."""
    if battle.concluded:
        raise Rejected("battle_concluded")
    if entry.type == CONCLUDE:
        result: dict[str, JSON] = {
            "server_seed": seeds.server_seed.hex(),
            "client_seed": seeds.client_seed,
            "dice_commitment": battle.dice_commitment,
        }
        return battle.game, result, (), None, None
    command = prepared(ruleset, battle, entry)
    decided = ruleset.decide(command, battle.game, dice)
    game = decided.state
    if game is None:  # the handler did not evolve its events itself
        game = battle.game
        for event in decided.events:
            game = ruleset.evolve(game, event)
    return game, encode(decided.result), decided.events, command, decided.result


def prepared(ruleset: Ruleset[C, Any, Any], battle: Battle[Any], entry: LogEntry) -> C:
    """The ruleset's command record for `entry`, through the checks that come before any die: a concluded
    battle, an unknown type, a field the record refuses, a combination of fields (`invalid()`, spec §2)."""
    if battle.concluded:
        raise Rejected("battle_concluded")
    if entry.type not in ruleset.commands:
        raise Rejected("unknown_command", command=entry.type)
    command = ruleset.parse(entry.type, entry.data)
    if isinstance(command, CommandRecord) and command.invalid():
        raise Rejected("invalid_field")
    return command


def _create(entry: LogEntry) -> tuple[Battle[Any], dict[str, JSON]]:
    if entry.version != 1 or entry.type != BATTLE_CREATED:
        raise ValueError("a battle's history starts with battle_created at version 1")
    ruleset = get_ruleset(str(entry.data["ruleset"]))
    pinned = str(entry.data.get("rules_version", ruleset.rules_version))
    if pinned not in ruleset.rules_versions:  # every reader folds through here: none judges by other rules
        raise UnfoldableRules(ruleset.name, pinned, ruleset.rules_versions)
    options = {**ruleset.default_options, **dict(entry.data.get("options") or {})}
    battle = Battle(
        ruleset=ruleset.name,
        rules_version=pinned,
        options=options,
        version=1,
        concluded=False,
        dice_commitment=str(entry.data.get("dice_commitment", "")),
        game=ruleset.initial_state(options),
    )
    result = {
        key: entry.data.get(key)
        for key in ("ruleset", "rules_version", "name", "dice_commitment", "client_seed")
    }
    result["options"] = options
    outcome = _outcome(entry, "applied", None, None, result, [], ())
    if battle.rules_version in v1.VERSIONS:
        outcome = v1.recorded(outcome, v1.created(ruleset.name))
    return battle, outcome


def _outcome(
    entry: LogEntry,
    status: str,
    reason: str | None,
    detail: dict[str, JSON] | None,
    result: dict[str, JSON] | None,
    rolls: list[dict[str, object]],
    events: tuple[Any, ...],
) -> dict[str, JSON]:
    """The stored outcome is language-free: the API renders its `summary` at the edge (summaries/)."""
    return {
        "version": entry.version,
        "type": entry.type,
        "status": status,
        "reason": reason,
        "detail": detail,
        "result": result,
        "rolls": rolls,
        "changes": [{"event": event_name(e), **encode(e)} for e in events],
        "hash": entry.hash,
    }


def encode_battle(battle: Battle[Any]) -> dict[str, JSON]:
    encoded = encode_header(battle)
    encoded["game"] = get_ruleset(battle.ruleset).encode_state(battle.game)
    return encoded


def encode_header(battle: Battle[Any]) -> dict[str, JSON]:
    """`encode_battle` but the ruleset's own state (`game`), which a caller may encode apart."""
    encoded: dict[str, JSON] = {
        "ruleset": battle.ruleset,
        "rules_version": battle.rules_version,
        "options": dict(battle.options),
        "version": battle.version,
        "concluded": battle.concluded,
        "dice_commitment": battle.dice_commitment,
    }
    if battle.rules_version not in v1.VERSIONS:  # version 1 had no undo, so its states no `undoable`
        encoded["undoable"] = battle.undoable
    return encoded


def decode_battle(data: Mapping[str, JSON]) -> Battle[Any]:
    ruleset = get_ruleset(str(data["ruleset"]))
    return Battle(
        ruleset=ruleset.name,
        rules_version=str(data["rules_version"]),
        options=dict(data["options"]),
        version=int(data["version"]),
        concluded=bool(data["concluded"]),
        dice_commitment=str(data["dice_commitment"]),
        game=ruleset.decode_state(data["game"]),
        undoable=int(data.get("undoable") or 0),  # projections stored before `undo` existed
    )
