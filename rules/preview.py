"""What-if: one command decided against a state over its possible dice, exactly when the dice tree is small,
else over seeded samples; the fold is only called, nothing is appended and the battle's stream never read."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.codec import JSON, encode
from rules.dice import Dice
from rules.errors import Rejected
from rules.fold import Battle, Entry, Rewind, Seeds, prepared, step
from rules.preview_fields import Tally
from rules.registry import get_ruleset

EXHAUSTIVE_LEAVES = 5000  # a tree of at most this many paths is walked whole
SAMPLES = 2000  # otherwise this many random paths
# fixed, so a preview is repeatable, and never the battle's: a preview reveals no die of the battle's stream
SAMPLE_KEY = hashlib.sha256(b"siege-rules preview samples").digest()
PROBE = 256  # first samples, whose mean product of faces estimates the tree's paths (Knuth's estimator)
SURELY_LARGE = 3 * EXHAUSTIVE_LEAVES // 2  # an estimate past this skips the walk: it would overflow anyway
NO_SEEDS = Seeds(server_seed=b"")  # what the fold sees of the battle's seeds in a preview: nothing


class Draws:
    """The preview's own uniform dice, a seeded stream that is not the battle's: the bytes of
    SHA-256(SAMPLE_KEY ‖ block number), each die by byte rejection as the stream draws them; one hash
    serves some thirty dice, where an HMAC per die cost a tenth of a sampled preview."""

    def __init__(self) -> None:
        self._block = 0
        self._bytes = b""
        self._used = 0

    def randint(self, low: int, high: int) -> int:
        sides = high - low + 1
        assert 1 <= sides <= 256, sides  # a byte per draw
        limit = 256 - (256 % sides)
        while True:
            if self._used == len(self._bytes):
                self._bytes = hashlib.sha256(SAMPLE_KEY + self._block.to_bytes(8, "big")).digest()
                self._block, self._used = self._block + 1, 0
            byte = self._bytes[self._used]
            self._used += 1
            if byte < limit:
                return low + byte % sides


class PathDice(Dice):
    """The dice of one path: the forced values first, then face 1 (walking) or a random face (sampling);
    it records every die it hands out with its number of faces, so the walk knows where to branch."""

    def __init__(self, forced: list[int], rng: Draws | None) -> None:
        super().__init__(key=b"", version=0, supplied={})
        self._forced = forced
        self._rng = rng
        self.path: list[tuple[int, int]] = []  # (value, sides) in draw order

    def _next_stream(self, sides: int) -> int:
        n = len(self.path)
        if n < len(self._forced):
            value = self._forced[n]
        else:
            value = self._rng.randint(1, sides) if self._rng is not None else 1
        self.path.append((value, sides))
        return value


@dataclass(frozen=True, slots=True, kw_only=True)
class Preview:
    exact: bool
    samples: int  # paths walked (exact) or drawn (sampled)
    tally: Tally

    def to_wire(self) -> dict[str, JSON]:
        tallied = self.tally.to_wire(self.exact, self.samples)
        return {"exact": self.exact, "samples": self.samples, **{k: _rounded(v) for k, v in tallied.items()}}


Decide = Callable[[Dice], dict[str, JSON]]  # one path's outcome: status, reason, result


def decider(battle: Battle[Any], entry: Entry, rewind: Rewind | None) -> Decide:
    """What each path runs: the ruleset's `decide` on the command parsed once, when the fold's checks before
    any die (concluded, known type, parse, fields) pass; else the whole fold step, which refuses it alike.
    The result is `decide`'s own, before the fold adds the turn, phase or round and the dice used."""
    ruleset = get_ruleset(battle.ruleset)
    try:
        command = prepared(ruleset, battle, entry)
    except Rejected:  # refused before any die (or `undo`, the fold's own): the whole step says how
        return lambda dice: step(battle, entry, NO_SEEDS, rewind, dice=dice)[1]

    def decide(dice: Dice) -> dict[str, JSON]:
        try:
            decided = ruleset.decide(command, battle.game, dice)
            dice.check_counts()
        except Rejected as refusal:
            return {"status": "rejected", "reason": refusal.reason, "result": None}
        return {"status": "applied", "reason": None, "result": encode(decided.result)}

    return decide


def preview(
    battle: Battle[Any], kind: str, data: Mapping[str, JSON], rewind: Rewind | None = None
) -> Preview:
    """`kind` with `data` decided after `battle`'s head over every die it could draw."""
    entry = Entry(version=battle.version + 1, type=kind, data=data, dice={})
    decide = decider(battle, entry, rewind)
    sampler = Sampler(decide)
    estimate = sampler.run(PROBE)
    if estimate <= SURELY_LARGE:
        walked = _walk(sampler)
        if walked is not None:
            return walked
    sampler.run(SAMPLES - PROBE)
    return Preview(exact=False, samples=SAMPLES, tally=sampler.tally)


def _walk(sampler: Sampler) -> Preview | None:
    """Depth first over the faces of each die a path draws; None past EXHAUSTIVE_LEAVES paths. The paths
    the probe already decided are answered by the tree it learnt."""
    tally, leaves = Tally(), 0
    forced: list[int] | None = []
    while forced is not None:
        path, outcome = sampler.walked(forced)
        leaves += 1
        if leaves > EXHAUSTIVE_LEAVES:
            return None
        tally.add(outcome, _probability(path))
        forced = _next_path(path)
    return Preview(exact=True, samples=leaves, tally=tally)


class Sampler:
    """Random paths, each die uniform; a path already met is not decided again: the tree it learnt (a
    prefix's number of faces, or the outcome a whole path gave) answers, and its tally counts it once."""

    def __init__(self, decide: Decide) -> None:
        self._decide = decide
        self._rng = Draws()
        self._sides: dict[tuple[int, ...], int] = {}  # a prefix -> faces of the die drawn next
        self._leaves: dict[tuple[int, ...], dict[str, JSON]] = {}  # a whole path -> its outcome
        self._drawn: dict[tuple[int, ...], int] = {}  # a whole path -> times drawn, first drawn first

    def run(self, n: int) -> float:
        """Draw n more paths; the mean product of faces along them (the tree's size, estimated)."""
        total = 0.0
        for _ in range(n):
            path = self._one()
            total += math.prod(sides for _v, sides in path)
            leaf = tuple(v for v, _s in path)
            self._drawn[leaf] = self._drawn.get(leaf, 0) + 1
        return total / max(1, n)

    @property
    def tally(self) -> Tally:
        """Each path drawn weighs 1 / SAMPLES; tallied in the order the paths were first drawn."""
        tally = Tally()
        for leaf, times in self._drawn.items():
            tally.add(self._leaves[leaf], times / SAMPLES)
        return tally

    def walked(self, forced: list[int]) -> tuple[list[tuple[int, int]], dict[str, JSON]]:
        """The walk's path that starts with `forced` (face 1 for every later die) and its outcome."""
        known = self._known(forced)
        if known is not None:
            return known
        dice = PathDice(forced, None)
        outcome = self._decide(dice)
        self._learn(dice.path, outcome)
        return dice.path, outcome

    def _known(self, forced: list[int]) -> tuple[list[tuple[int, int]], dict[str, JSON]] | None:
        path: list[tuple[int, int]] = []
        prefix: tuple[int, ...] = ()
        while prefix not in self._leaves:
            sides = self._sides.get(prefix)
            if sides is None:
                return None
            value = forced[len(prefix)] if len(prefix) < len(forced) else 1
            path.append((value, sides))
            prefix = (*prefix, value)
        return (path, self._leaves[prefix]) if len(prefix) >= len(forced) else None

    def _one(self) -> list[tuple[int, int]]:
        prefix: tuple[int, ...] = ()
        path: list[tuple[int, int]] = []
        while prefix not in self._leaves:
            sides = self._sides.get(prefix)
            if sides is None:
                return self._decided(list(prefix))
            value = self._rng.randint(1, sides)
            path.append((value, sides))
            prefix = (*prefix, value)
        return path

    def _decided(self, forced: list[int]) -> list[tuple[int, int]]:
        dice = PathDice(forced, self._rng)
        outcome = self._decide(dice)
        self._learn(dice.path, outcome)
        return dice.path

    def _learn(self, path: list[tuple[int, int]], outcome: dict[str, JSON]) -> None:
        for n, (_value, sides) in enumerate(path):
            self._sides[tuple(v for v, _s in path[:n])] = sides
        self._leaves[tuple(v for v, _s in path)] = outcome


def _probability(path: list[tuple[int, int]]) -> float:
    p = 1.0
    for _value, sides in path:
        p /= sides
    return p


def _next_path(path: list[tuple[int, int]]) -> list[int] | None:
    """The forced values of the next path: the last die not on its top face goes up one, later ones go."""
    for i in range(len(path) - 1, -1, -1):
        value, sides = path[i]
        if value < sides:
            return [v for v, _s in path[:i]] + [value + 1]
    return None


def _rounded(value: JSON) -> JSON:
    """Floats to 12 decimals: sums of path probabilities carry float noise (0.9999999999999682) below that."""
    if isinstance(value, float):
        return round(value, 12)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value
