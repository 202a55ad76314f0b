"""The one fold over a battle's history: projection, replay, audit and time travel all call `project`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from rules.codec import JSON, encode
from rules.declare import CommandRecord
from rules.dice import Dice, stream_key
from rules.errors import Rejected
from rules.events import event_name
from rules.registry import get_ruleset
from rules.ruleset import Ruleset

S = TypeVar("S")
BATTLE_CREATED = "battle_created"
CONCLUDE = "conclude"


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


def project(
    battle: Battle[Any] | None, entries: Iterable[LogEntry], seeds: Seeds
) -> Iterator[tuple[Battle[Any], dict[str, JSON]]]:
    """Fold entries onto `battle` (None before version 1), yielding each new state and its outcome."""
    for entry in entries:
        battle, outcome = step(battle, entry, seeds)
        yield battle, outcome


def step(battle: Battle[Any] | None, entry: LogEntry, seeds: Seeds) -> tuple[Battle[Any], dict[str, JSON]]:
    if battle is None:
        return _create(entry)
    if battle.version + 1 != entry.version:
        raise ValueError(f"fold expected version {battle.version + 1}, got {entry.version}")
    ruleset = get_ruleset(battle.ruleset)
    dice = Dice(key=seeds.key, version=entry.version, supplied=entry.dice)
    try:
        game, result, events = _decide(ruleset, battle, entry, dice, seeds)
        dice.check_counts()
    except Rejected as refusal:
        moved = _advance(battle, entry.version, battle.game, battle.concluded)
        return moved, _outcome(entry, "rejected", refusal.reason, refusal.detail or None, None, [], ())
    result = ruleset.finish_result(game, result, dice)
    concluded = battle.concluded or entry.type == CONCLUDE
    new = _advance(battle, entry.version, game, concluded)
    rolls = [r.to_wire() for r in dice.rolls]
    return new, _outcome(entry, "applied", None, None, result, rolls, events)


def _advance(battle: Battle[Any], version: int, game: Any, concluded: bool) -> Battle[Any]:
    # a direct constructor call: dataclasses.replace costs several times more on the fold's hot path
    return Battle(
        ruleset=battle.ruleset,
        rules_version=battle.rules_version,
        options=battle.options,
        version=version,
        concluded=concluded,
        dice_commitment=battle.dice_commitment,
        game=game,
    )


def _decide(
    ruleset: Ruleset[Any, Any, Any], battle: Battle[Any], entry: LogEntry, dice: Dice, seeds: Seeds
) -> tuple[Any, dict[str, JSON], tuple[Any, ...]]:
    if battle.concluded:
        raise Rejected("battle_concluded")
    if entry.type == CONCLUDE:
        result: dict[str, JSON] = {
            "server_seed": seeds.server_seed.hex(),
            "client_seed": seeds.client_seed,
            "dice_commitment": battle.dice_commitment,
        }
        return battle.game, result, ()
    if entry.type not in ruleset.commands:
        raise Rejected("unknown_command", command=entry.type)
    command = ruleset.parse(entry.type, entry.data)
    if isinstance(command, CommandRecord) and command.invalid():
        raise Rejected("invalid_field")  # spec §2: a combination of fields, checked before anything else
    decided = ruleset.decide(command, battle.game, dice)
    game = battle.game
    for event in decided.events:
        game = ruleset.evolve(game, event)
    return game, encode(decided.result), decided.events


def _create(entry: LogEntry) -> tuple[Battle[Any], dict[str, JSON]]:
    if entry.version != 1 or entry.type != BATTLE_CREATED:
        raise ValueError("a battle's history starts with battle_created at version 1")
    ruleset = get_ruleset(str(entry.data["ruleset"]))
    options = {**ruleset.default_options, **dict(entry.data.get("options") or {})}
    battle = Battle(
        ruleset=ruleset.name,
        rules_version=str(entry.data.get("rules_version", ruleset.rules_version)),
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
    return battle, _outcome(entry, "applied", None, None, result, [], ())


def _outcome(
    entry: LogEntry,
    status: str,
    reason: str | None,
    detail: dict[str, JSON] | None,
    result: dict[str, JSON] | None,
    rolls: list[dict[str, object]],
    events: tuple[Any, ...],
) -> dict[str, JSON]:
    """The stored outcome is language-free: the API renders its `summary` at the edge (service/messages)."""
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
    ruleset = get_ruleset(battle.ruleset)
    return {
        "ruleset": battle.ruleset,
        "rules_version": battle.rules_version,
        "options": dict(battle.options),
        "version": battle.version,
        "concluded": battle.concluded,
        "dice_commitment": battle.dice_commitment,
        "game": ruleset.encode_state(battle.game),
    }


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
    )
