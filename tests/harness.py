"""A battle table for tests: send wire commands, read wire outcomes; the same interface over the pure
fold and over the HTTP API, so every worked example runs against both."""

from __future__ import annotations

from collections.abc import Mapping
from functools import reduce
from typing import Any, Protocol

from eventstore.canonical import canonical_json
from rules.dice import Dice, commitment
from rules.fold import BATTLE_CREATED, CONCLUDE, UNDO, Battle, Entry, Seeds, encode_battle, prepared, step
from rules.registry import get_ruleset
from summaries import LANGUAGES, summary
from tests.referee import recording

TEST_SEED = bytes(range(32))


class Table(Protocol):
    def send(self, command: Mapping[str, Any]) -> dict[str, Any]:
        """Append one command `{type, ...fields, dice?}` and return its outcome."""

    def state(self) -> dict[str, Any]:
        """The ruleset's own projected state (the `game` part of the battle)."""


class RulesTable:
    """Folds commands straight through `rules.fold`, exactly as a worker does."""

    def __init__(self, ruleset: str, options: Mapping[str, Any] | None = None, client_seed: str = "") -> None:
        self.seeds = Seeds(server_seed=TEST_SEED, client_seed=client_seed)
        created = Entry(
            version=1,
            type=BATTLE_CREATED,
            data={
                "ruleset": ruleset,
                "rules_version": get_ruleset(ruleset).rules_version,
                "options": dict(options or {}),
                "dice_commitment": commitment(TEST_SEED),
                "client_seed": client_seed,
                "name": None,
            },
            dice={},
        )
        self.battle: Battle[Any]
        self.ruleset = ruleset
        self.battle, self.created = step(None, created, self.seeds)
        self.outcomes: list[dict[str, Any]] = [self.created]
        self.states: list[Battle[Any]] = [self.battle]  # by version - 1: what an `undo` rewinds to
        self.entries: list[Entry] = [created]
        recording.made(self)

    def send(self, command: Mapping[str, Any]) -> dict[str, Any]:
        body = dict(command)
        kind = body.pop("type")
        dice = body.pop("dice", {}) or {}
        entry = Entry(version=self.battle.version + 1, type=kind, data=body, dice=dice)
        before = self.battle
        self.battle, outcome = step(self.battle, entry, self.seeds, self.at)
        if outcome["status"] == "applied" and kind not in (UNDO, CONCLUDE):
            assert_decided_state(before, entry, self.seeds)
        self.outcomes.append(outcome)
        self.states.append(self.battle)
        self.entries.append(entry)
        # outcomes cross the wire as JSON: make sure they survive the trip unchanged
        assert canonical_json(outcome) is not None
        for language in LANGUAGES:  # every outcome any test makes can be told in every language
            summary(self.ruleset, outcome, body, language, strict=True)
        return outcome

    def state(self) -> dict[str, Any]:
        game: dict[str, Any] = encode_battle(self.battle)["game"]
        return game

    def at(self, version: int) -> Battle[Any]:
        return self.states[version - 1]


def assert_decided_state(before: Battle[Any], entry: Entry, seeds: Seeds) -> None:
    """A handler that hands the fold the state it evolved (`Outcome.state`) hands exactly what `evolve`
    makes of its events: decided again with the same dice, then its events evolved one by one."""
    ruleset = get_ruleset(before.ruleset)
    dice = Dice(key=seeds.key, version=entry.version, supplied=entry.dice)
    decided = ruleset.decide(prepared(ruleset, before, entry), before.game, dice)
    if decided.state is not None:
        assert decided.state == reduce(ruleset.evolve, decided.events, before.game), entry.type
