"""What every ruleset provides to the fold, the API and the workers: one frozen record of pure functions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.codec import JSON
from rules.dice import Dice


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """What `decide` returns for an applied command: the wire result, a summary and the events."""

    result: dict[str, JSON]
    summary: str
    events: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """A ruleset's pure functions. `decide` raises `Rejected(reason)` for a refused command."""

    name: str
    rules_version: str
    title: str
    # command type -> the frozen dataclass that `parse` builds for it
    commands: Mapping[str, type]
    # dice slot -> die faces, None where the die depends on the roll (checked when drawn)
    dice_slots: Mapping[str, int | None]
    # option name -> default value; the schemas validate values, the rules read them from the state
    default_options: Mapping[str, JSON]
    initial_state: Callable[[Mapping[str, JSON]], Any]
    parse: Callable[[str, Mapping[str, JSON]], Any]
    decide: Callable[[Any, Any, Dice], Outcome]
    evolve: Callable[[Any, Any], Any]
    # fields every applied result carries (turn/phase, round, dice_used, unused_dice, …)
    finish_result: Callable[[Any, dict[str, JSON], Dice], dict[str, JSON]]
    encode_state: Callable[[Any], JSON]
    decode_state: Callable[[JSON], Any]
    # the public description served by GET /rulesets/{name}: commands, slots, options, catalog
    describe: Callable[[], dict[str, JSON]]
    # how `unused_dice` is written in results: {slot: values} (epic) or [slot names] (pathfinder)
    unused_dice_style: Literal["values", "names"] = "values"
    # (parsed command, state) -> the sides owning the entities the command acts with, or None when only
    # the referee may send it (setup, phases, entities no side controls); None here: side tokens send nothing
    acting_sides: Callable[[Any, Any], frozenset[str] | None] | None = None
    extra: Mapping[str, JSON] = field(default_factory=dict)
