"""Rules version 1 (`epic-1`, `pathfinder-1`), folded as it was recorded.

The rules themselves did not change at the bump to version 2 (commit 3d3a22b): over every log the rules
tests of its parent commit play, and thousands of variations of them, today's fold gives those battles'
outcomes field for field. What changed is the stored outcome's shape: a version 1 outcome has no `detail`,
and carries the English `summary` its handler wrote. So a version 1 battle folds through today's rules, and
this package gives its outcomes that shape, each summary from version 1's own templates (one module per
ruleset, keyed by command type), rendered from what the fold has: the command and its result record.

Version 1 had no `undo` either: the fold leaves that command to the ruleset, which does not know it."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from rules.codec import JSON

VERSIONS = frozenset({"epic-1", "pathfinder-1"})
# the ruleset titles of version 1 (each battle_created outcome named its ruleset by it)
TITLES = {
    "epic": "Epic fortress siege (Space Marine 2 / Titan Legions)",
    "pathfinder": "Pathfinder 1e siege engines",
}
CONCLUDED = "battle concluded; the dice seed is revealed"
CONCLUDE = "conclude"
_MODULES = {"epic": "rules.v1.epic", "pathfinder": "rules.v1.pathfinder"}
# a version 1 outcome's keys, in the order its fold wrote them; `summary` sat between rolls and changes
_BEFORE_SUMMARY = ("version", "type", "status", "reason", "result", "rolls")
_AFTER_SUMMARY = ("changes", "hash")
Summary = Callable[[Any, Any], str]  # (command record, result record) -> the line its handler wrote


def recorded(outcome: Mapping[str, JSON], summary: str) -> dict[str, JSON]:
    """Today's outcome as version 1 stored it: its own keys only (no `detail`), with `summary`."""
    shaped = {key: outcome[key] for key in _BEFORE_SUMMARY}
    shaped["summary"] = summary
    for key in _AFTER_SUMMARY:
        shaped[key] = outcome[key]
    return shaped


def created(ruleset: str) -> str:
    return f"{TITLES[ruleset]} battle created"


def rejected(reason: str) -> str:
    return f"rejected: {reason}"


def applied(ruleset: str, kind: str, command: object, result: object) -> str:
    """The summary version 1's handler of `kind` wrote for this applied command and its result."""
    if kind == CONCLUDE:
        return CONCLUDED
    return summaries(ruleset)[kind](command, result)


@cache
def summaries(ruleset: str) -> Mapping[str, Summary]:
    """A ruleset's version 1 summaries by command type, loaded when one of its battles first needs them."""
    table: Mapping[str, Summary] = importlib.import_module(_MODULES[ruleset]).SUMMARIES
    return table
