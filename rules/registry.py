"""Which rulesets exist; each is imported on first use so a process pays only for what it folds.

Named by a literal, a ruleset comes back with its own command, event and state types; named by a string
read at run time (a battle's header), it is `Ruleset[Any, Any, Any]`: which one is known only then.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, overload

from rules.errors import UnfoldableRules
from rules.ruleset import Ruleset

if TYPE_CHECKING:  # the types only: importing the rulesets here would load both in every process
    from rules.epic.commands import Command as EpicCommand
    from rules.epic.events import Event as EpicEvent
    from rules.epic.state import EpicState
    from rules.pathfinder.commands import Command as PathfinderCommand
    from rules.pathfinder.events import Event as PathfinderEvent
    from rules.pathfinder.state import PfState

RULESET_MODULES = {"epic": "rules.epic", "pathfinder": "rules.pathfinder"}


class UnknownRuleset(LookupError):
    pass


def ruleset_names() -> list[str]:
    return [name for name in RULESET_MODULES if _available(name)]


@overload
def get_ruleset(name: Literal["epic"]) -> Ruleset[EpicCommand, EpicEvent, EpicState]: ...
@overload
def get_ruleset(name: Literal["pathfinder"]) -> Ruleset[PathfinderCommand, PathfinderEvent, PfState]: ...
@overload
def get_ruleset(name: str) -> Ruleset[Any, Any, Any]: ...
def get_ruleset(name: str) -> Ruleset[Any, Any, Any]:
    return _load(name)


@cache
def _load(name: str) -> Ruleset[Any, Any, Any]:
    if name not in RULESET_MODULES:
        raise UnknownRuleset(name)
    module = importlib.import_module(RULESET_MODULES[name])
    ruleset: Ruleset[Any, Any, Any] = module.RULESET
    return ruleset


def folded_versions(name: str) -> tuple[str, ...]:
    """The rules versions of ruleset `name` this release folds exactly as recorded, the
    current one last; none for a ruleset this release does not have. Verify, audit, import and the
    workers all ask here whether a battle can be judged."""
    try:
        return get_ruleset(name).rules_versions
    except LookupError:  # a ruleset of another release
        return ()


def refusal(created: Mapping[str, Any]) -> UnfoldableRules | None:
    """Why this release cannot fold a battle whose version 1 data is `created` (None: it can)."""
    name, pinned = str(created.get("ruleset")), str(created.get("rules_version"))
    supported = folded_versions(name)
    return None if pinned in supported else UnfoldableRules(name, pinned, supported)


def _available(name: str) -> bool:
    try:
        get_ruleset(name)
    except (ImportError, AttributeError):
        return False
    return True
