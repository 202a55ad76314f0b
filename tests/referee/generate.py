"""Random battles for the differential test and the import round trip: command sequences of either
ruleset, generated from the commands' own declarations (`rules.declare.plan`) and from the logs the rules
tests play (so fights, breaches and sieges are reached, not only refusals), with random options, client
dice, rejections, undos and `conclude`.

A `BattleWriter` draws every detail from a `random.Random`; the Hypothesis state machines choose the kind
of each step and the seed of its details, so a failing sequence shrinks step by step."""

from __future__ import annotations

import random
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.declare import (
    Choice,
    FieldPlan,
    Nullable,
    Rec,
    Scalar,
    Sentinel,
    Seq,
    Shape,
    Tagged,
    plan,
    spec_of,
)
from rules.dice import commitment
from rules.registry import get_ruleset

Command = dict[str, Any]  # a wire command: {type, ...fields, dice?}
# how often each kind of step is drawn: mostly the tests' own battles, so deep states are reached
STEP_WEIGHTS = {"script": 24, "mutated": 4, "declared": 4, "undo": 2, "advance": 2, "dice": 2, "unknown": 1}
STEP_KINDS = tuple(kind for kind, weight in STEP_WEIGHTS.items() for _ in range(weight))
ADVANCE = {"epic": "advance_phase", "pathfinder": "advance_round"}
SERVER_SEED = bytes(range(32))  # the fold servers' seed: a battle's stream dice depend on it


@dataclass
class Library:
    """The commands the rules tests send, by ruleset: whole logs to play from, and each command alone."""

    logs: dict[str, list[list[Command]]] = field(default_factory=dict)

    @classmethod
    def of(cls, recorded: Iterable[Mapping[str, Any]]) -> Library:
        library = cls()
        for log in recorded:
            commands = [_wire(e) for e in log["entries"][1:]]
            if commands:
                library.logs.setdefault(str(log["ruleset"]), []).append(commands)
        return library

    def commands(self, ruleset: str) -> list[Command]:
        return [c for log in self.logs.get(ruleset, []) for c in log]


def _wire(entry: Mapping[str, Any]) -> Command:
    command: Command = {"type": entry["type"], **entry["data"]}
    if entry.get("dice"):
        command["dice"] = dict(entry["dice"])
    return command


class BattleWriter:
    """One generated battle: its creation, then one command per `next`, ids remembered as they are made."""

    def __init__(self, ruleset: str, library: Library, rnd: random.Random) -> None:
        self.ruleset = get_ruleset(ruleset)
        self.library = library
        self.ids: list[str] = []
        self.script: list[Command] = []
        self.concluded = False
        rnd_logs = library.logs.get(ruleset, [])
        for _ in range(rnd.randint(1, 2) if rnd_logs else 0):  # one or two tests' battles, interleaved
            self.script = _interleave(self.script, list(rnd.choice(rnd_logs)), rnd)
        for command in self.script:
            self._remember(command)

    def created(self, rnd: random.Random) -> dict[str, Any]:
        """`battle_created`'s data: house rules drawn from the options record, maybe a client seed."""
        options = {p.name: _value(p, rnd, self.ids) for p in plan(self.ruleset.options) if rnd.random() < 0.3}
        return {
            "ruleset": self.ruleset.name,
            # mostly today's rules, sometimes an earlier version this release still folds (rules/v1)
            "rules_version": rnd.choice([*self.ruleset.rules_versions, *[self.ruleset.rules_version] * 3]),
            "options": options,
            "dice_commitment": commitment(SERVER_SEED),
            "client_seed": rnd.choice(["", "", "table-7", "é🎲"]),
            "name": None,
        }

    def next(self, kind: str, rnd: random.Random) -> Command:
        """A command of the given kind (one of STEP_KINDS, or `conclude`)."""
        if kind == "script" and self.script:
            command = self.script.pop(0)
        elif kind == "mutated" and self.script:
            command = self._mutated(self.script.pop(0), rnd)
        elif kind == "undo":
            command = {"type": "undo"}
        elif kind == "advance":
            command = {"type": ADVANCE[self.ruleset.name]}
        elif kind == "dice":
            command = self._with_dice(self._declared(rnd), rnd)
        elif kind == "unknown":
            command = {"type": rnd.choice(["teleport", "fire_", ""]), "x": 1}
        elif kind == "conclude":
            command = {"type": "conclude"}
        else:
            command = self._declared(rnd)
        self._remember(command)
        return command

    def _declared(self, rnd: random.Random) -> Command:
        """A command built from its record's declaration, every field drawn (ids mostly ones made before)."""
        name = rnd.choice(sorted(self.ruleset.commands))
        command: Command = {"type": name}
        record: type = self.ruleset.commands[name]
        for p in plan(record):
            if p.required or rnd.random() < 0.5:
                command[p.name] = _value(p, rnd, self.ids)
        return self._with_dice(command, rnd) if rnd.random() < 0.2 else command

    def _mutated(self, command: Command, rnd: random.Random) -> Command:
        """A command of a test's battle with one field redrawn, dropped or added, or its dice changed."""
        changed = dict(command)
        record: type | None = self.ruleset.commands.get(str(command["type"]))
        plans = plan(record) if record is not None else ()
        what = rnd.random()
        if plans and what < 0.5:
            p = rnd.choice(plans)
            changed[p.name] = _value(p, rnd, self.ids)
        elif plans and what < 0.7:
            changed.pop(rnd.choice(plans).name, None)
        else:
            changed = self._with_dice(changed, rnd)
        return changed

    def _with_dice(self, command: Command, rnd: random.Random) -> Command:
        """Client dice for the command's slots: right or wrong counts, in or out of range."""
        record = self.ruleset.commands.get(str(command.get("type")))
        slots = list(spec_of(record).dice) if record is not None else []
        if not slots or rnd.random() < 0.1:
            slots = [rnd.choice(sorted(self.ruleset.slots))]
        dice: dict[str, Any] = {}
        for slot in rnd.sample(slots, rnd.randint(1, len(slots))):
            faces = self.ruleset.slots[slot].faces or 20
            count = rnd.choice([1, 1, 2, self.ruleset.slots[slot].per_roll, 3])
            dice[slot] = [rnd.randint(1, faces + (1 if rnd.random() < 0.05 else 0)) for _ in range(count)]
        return {**command, "dice": dice}

    def _remember(self, command: Command) -> None:
        record: type | None = self.ruleset.commands.get(str(command.get("type")))
        for p in plan(record) if record is not None else ():
            if p.facts.new and isinstance(command.get(p.name), str) and command[p.name] not in self.ids:
                self.ids.append(command[p.name])


def _interleave(first: list[Command], second: list[Command], rnd: random.Random) -> list[Command]:
    merged: list[Command] = []
    while first or second:
        source = first if first and (not second or rnd.random() < 0.5) else second
        merged.append(source.pop(0))
    return merged


def _value(p: FieldPlan, rnd: random.Random, ids: Sequence[str]) -> Any:
    if p.facts.form is not None:
        return _record(p.facts.form.record, rnd, ids)
    shape = p.shape.inner if (p.facts.omit_only and isinstance(p.shape, Nullable)) else p.shape
    return _shaped(shape, p, rnd, ids)


def _shaped(shape: Shape, p: FieldPlan, rnd: random.Random, ids: Sequence[str]) -> Any:
    facts = p.facts
    match shape:
        case Nullable(inner):
            return None if rnd.random() < 0.2 else _shaped(inner, p, rnd, ids)
        case Sentinel(inner):
            return _shaped(inner, p, rnd, ids)
        case Scalar("bool"):
            return rnd.random() < 0.5
        case Scalar("int"):
            if facts.choices:
                return rnd.choice(facts.choices)
            low = facts.minimum if facts.minimum is not None else -3
            high = facts.maximum if facts.maximum is not None else low + rnd.choice([6, 20, 60])
            return rnd.randint(low, high) if rnd.random() < 0.95 else rnd.choice([low - 1, high + 1])
        case Scalar():
            return _text(
                facts.choices, facts.ref is not None or facts.ref_from is not None, facts.new, rnd, ids
            )
        case Choice():
            return rnd.choice(shape.allowed(facts))
        case Seq(item):
            count = rnd.randint(facts.min_items or 0, (facts.min_items or 0) + 3)
            return [_shaped(item, p, rnd, ids) for _ in range(count)]
        case Rec(record):
            return _record(record, rnd, ids)
        case Tagged(tag):
            variants = shape.allowed(facts)
            kind = rnd.choice(sorted(variants))
            return {**_record(variants[kind], rnd, ids), tag: kind}


def _record(record: type, rnd: random.Random, ids: Sequence[str]) -> dict[str, Any]:
    return {p.name: _value(p, rnd, ids) for p in plan(record) if p.required or rnd.random() < 0.5}


def _text(
    choices: tuple[Any, ...] | None, names: bool, new: bool, rnd: random.Random, ids: Sequence[str]
) -> str:
    if choices:
        return str(rnd.choice(choices))
    if ids and (names or (new and rnd.random() < 0.1)) and rnd.random() < 0.9:
        return rnd.choice(ids)  # mostly an id made before: a new one that repeats is `duplicate_id`
    return "".join(rnd.choice(string.ascii_lowercase) for _ in range(rnd.randint(1, 4)))
