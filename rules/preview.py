"""What-if: one command decided against a state over its possible dice, exactly when the dice tree is small,
else over seeded samples; the fold is only called, nothing is appended and the battle's stream never read.

A node of the tree is one die, or the sum of a group of dice the rules read only as a sum (`Dice.roll`'s
`summed`: a damage roll's total, not its order): 4d6 of damage is one node of 21 sums, not 1,296 paths."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules.codec import JSON
from rules.dice import Dice, Roll
from rules.errors import Rejected
from rules.fold import Battle, Entry, Rewind, Seeds, prepared, step
from rules.preview_fields import Tally
from rules.registry import get_ruleset

SAMPLES = 2000  # a sampled answer's random paths
EXHAUSTIVE_LEAVES = SAMPLES  # a tree of at most this many paths is walked whole: never dearer than sampling
# so is one of at most this many paths, every order of a sum apart: each tree walked before sums merged
ORDERED_LEAVES = 5000
# fixed, so a preview is repeatable, and never the battle's: a preview reveals no die of the battle's stream
SAMPLE_KEY = hashlib.sha256(b"siege-rules preview samples").digest()
PROBE = 256  # first samples, whose mean 1 / probability estimates the tree's paths (Knuth's estimator)
# the estimates below which a walk is tried: past the orders' limit by half it would overflow anyway; the
# paths' estimate runs low on a tree with a rare large branch (a confirmed critical's two sums: 2,600 for a
# ram's 4,369 paths), and a walk that overflows costs EXHAUSTIVE_LEAVES decides, so half its limit
WALK_BELOW_ORDERS = 3 * ORDERED_LEAVES // 2
WALK_BELOW_PATHS = EXHAUSTIVE_LEAVES // 2
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

    def total(self, sides: int, count: int) -> int:
        """The sum of `count` dice of `sides` faces, drawn one after another."""
        if count == 1:  # nearly every node: no generator to build
            return self.randint(1, sides)
        return sum(self.randint(1, sides) for _ in range(count))


Node = tuple[int, int, int]  # (value, sides, count): a face of one die, or the sum of `count` such dice


class PathDice(Dice):
    """The dice of one path: the forced values first, then the lowest value (walking) or a random one
    (sampling); it records every node it hands out, so the walk knows where to branch."""

    def __init__(self, forced: list[int], rng: Draws | None) -> None:
        super().__init__(key=b"", version=0, supplied={})
        self._forced = forced
        self._rng = rng
        self.path: list[Node] = []  # in draw order

    def roll(self, slot: str, sides: int, count: int = 1, *, summed: tuple[int, ...] = ()) -> list[int]:
        # whole, not through Dice.roll: a preview supplies no die, and this runs for every die of every path
        if summed:
            assert sum(summed) == count, (summed, count)
            values = [v for group in summed if group for v in _spread(self._node(sides, group), sides, group)]
        elif count == 1:  # nearly every roll: no comprehension to build
            values = [self._node(sides, 1)]
        else:
            values = [self._node(sides, 1) for _ in range(count)]
        rolls = self.rolls
        for value in values:
            rolls.append(Roll(slot=slot, sides=sides, value=value, source="stream"))
        return values

    def _node(self, sides: int, count: int) -> int:
        n = len(self.path)
        if n < len(self._forced):
            value = self._forced[n]
        elif self._rng is None:
            value = count  # every die on face 1
        else:
            value = self._rng.total(sides, count)
        self.path.append((value, sides, count))
        return value


def _spread(total: int, sides: int, count: int) -> list[int]:
    """`count` faces adding up to `total`, the highest first: one stand-in for every order and split."""
    values, rest = [], total - count
    for _ in range(count):
        extra = min(sides - 1, rest)
        values.append(1 + extra)
        rest -= extra
    return values


@lru_cache(maxsize=256)
def _ways(sides: int, count: int) -> tuple[int, ...]:
    """ways[t]: the orders in which `count` dice of `sides` faces add up to t."""
    ways = [1]
    for _ in range(count):
        grown = [0] * (len(ways) + sides)
        for t, w in enumerate(ways):
            if w:
                for face in range(1, sides + 1):
                    grown[t + face] += w
        ways = grown
    return tuple(ways)


def _chance(value: int, sides: int, count: int) -> float:
    """The probability that `count` dice of `sides` faces add up to `value`."""
    outcomes: int = sides**count
    return _ways(sides, count)[value] / outcomes


@dataclass(frozen=True, slots=True, kw_only=True)
class Preview:
    exact: bool
    samples: int  # paths walked (exact) or drawn (sampled)
    tally: Tally

    def to_wire(self) -> dict[str, JSON]:
        tallied = self.tally.to_wire(self.exact, self.samples)
        return {"exact": self.exact, "samples": self.samples, **{k: _rounded(v) for k, v in tallied.items()}}


# one path's outcome: status, reason, and the result as a record or as its plain JSON (the tally reads either)
Decide = Callable[[Dice], dict[str, JSON]]


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
        # the record itself: the tally reads its leaves off it, as `encode` would write them
        return {"status": "applied", "reason": None, "result": decided.result}

    return decide


def preview(
    battle: Battle[Any], kind: str, data: Mapping[str, JSON], rewind: Rewind | None = None
) -> Preview:
    """`kind` with `data` decided after `battle`'s head over every die it could draw."""
    entry = Entry(version=battle.version + 1, type=kind, data=data, dice={})
    return answer(decider(battle, entry, rewind))


def answer(decide: Decide) -> Preview:
    """Every path of `decide` walked when its tree is small enough, else SAMPLES of them drawn."""
    sampler = Sampler(decide)
    paths, orders = sampler.probe(PROBE)
    if paths <= WALK_BELOW_PATHS or orders <= WALK_BELOW_ORDERS:
        walked = _walk(sampler)
        if walked is not None:
            return walked
    sampler.run(SAMPLES - PROBE)
    return Preview(exact=False, samples=SAMPLES, tally=sampler.tally)


def _walk(sampler: Sampler) -> Preview | None:
    """Depth first over the values of each node a path draws; None once past both EXHAUSTIVE_LEAVES paths
    and ORDERED_LEAVES orders of their dice. The paths the probe already decided are answered by the tree
    it learnt."""
    tally, leaves, orders = Tally(), 0, 0
    forced: list[int] | None = []
    while forced is not None:
        path, outcome = sampler.walked(forced)
        leaves, orders = leaves + 1, orders + _orders(path)
        if leaves > EXHAUSTIVE_LEAVES and orders > ORDERED_LEAVES:
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
        self._sides: dict[tuple[int, ...], tuple[int, int]] = {}  # a prefix -> (sides, count) drawn next
        self._leaves: dict[tuple[int, ...], dict[str, JSON]] = {}  # a whole path -> its outcome
        self._drawn: dict[tuple[int, ...], int] = {}  # a whole path -> times drawn, first drawn first

    def probe(self, n: int) -> tuple[float, float]:
        """Draw n more paths; the tree's size estimated as their mean 1 / probability: in paths, and in
        orders of their dice (each sum's every order apart, as a walk counted before sums merged)."""
        paths = orders = 0.0
        for _ in range(n):
            path = self._one()
            paths += 1 / _probability(path)
            orders += math.prod(sides**count for _v, sides, count in path)
        return paths / max(1, n), orders / max(1, n)

    def run(self, n: int) -> None:
        """Draw n more paths."""
        for _ in range(n):
            self._one()

    def _one(self) -> list[Node]:
        path = self._path()
        leaf = tuple(v for v, _s, _c in path)
        self._drawn[leaf] = self._drawn.get(leaf, 0) + 1
        return path

    @property
    def tally(self) -> Tally:
        """Each path drawn weighs 1 / SAMPLES; tallied in the order the paths were first drawn."""
        tally = Tally()
        for leaf, times in self._drawn.items():
            tally.add(self._leaves[leaf], times / SAMPLES)
        return tally

    def walked(self, forced: list[int]) -> tuple[list[Node], dict[str, JSON]]:
        """The walk's path that starts with `forced` (the lowest value for every later node), its outcome."""
        known = self._known(forced)
        if known is not None:
            return known
        dice = PathDice(forced, None)
        outcome = self._decide(dice)
        self._learn(dice.path, outcome)
        return dice.path, outcome

    def _known(self, forced: list[int]) -> tuple[list[Node], dict[str, JSON]] | None:
        path: list[Node] = []
        prefix: tuple[int, ...] = ()
        while prefix not in self._leaves:
            node = self._sides.get(prefix)
            if node is None:
                return None
            sides, count = node
            value = forced[len(prefix)] if len(prefix) < len(forced) else count
            path.append((value, sides, count))
            prefix = (*prefix, value)
        return (path, self._leaves[prefix]) if len(prefix) >= len(forced) else None

    def _path(self) -> list[Node]:
        prefix: tuple[int, ...] = ()
        path: list[Node] = []
        while prefix not in self._leaves:
            node = self._sides.get(prefix)
            if node is None:
                return self._decided(list(prefix))
            sides, count = node
            value = self._rng.total(sides, count)
            path.append((value, sides, count))
            prefix = (*prefix, value)
        return path

    def _decided(self, forced: list[int]) -> list[Node]:
        dice = PathDice(forced, self._rng)
        outcome = self._decide(dice)
        self._learn(dice.path, outcome)
        return dice.path

    def _learn(self, path: list[Node], outcome: dict[str, JSON]) -> None:
        prefix: tuple[int, ...] = ()
        for value, sides, count in path:
            self._sides[prefix] = (sides, count)
            prefix = (*prefix, value)
        self._leaves[prefix] = outcome


def _probability(path: list[Node]) -> float:
    p = 1.0
    for value, sides, count in path:
        p *= 1 / sides if count == 1 else _chance(value, sides, count)
    return p


def _orders(path: list[Node]) -> int:
    """The paths this one stands for with every order of its sums apart (a sum's ways to be rolled)."""
    ways = 1
    for value, sides, count in path:
        if count > 1:
            ways *= _ways(sides, count)[value]
    return ways


def _next_path(path: list[Node]) -> list[int] | None:
    """The forced values of the next path: the last node below its top value goes up one, later ones go."""
    for i in range(len(path) - 1, -1, -1):
        value, sides, count = path[i]
        if value < sides * count:
            return [v for v, _s, _c in path[:i]] + [value + 1]
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
