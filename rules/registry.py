"""Which rulesets exist; each is imported on first use so a process pays only for what it folds."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from rules.ruleset import Ruleset

RULESET_MODULES = {"epic": "rules.epic", "pathfinder": "rules.pathfinder"}


class UnknownRuleset(LookupError):
    pass


def ruleset_names() -> list[str]:
    return [name for name in RULESET_MODULES if _available(name)]


@cache
def get_ruleset(name: str) -> Ruleset[Any, Any, Any]:
    if name not in RULESET_MODULES:
        raise UnknownRuleset(name)
    module = importlib.import_module(RULESET_MODULES[name])
    ruleset: Ruleset[Any, Any, Any] = module.RULESET
    return ruleset


def _available(name: str) -> bool:
    try:
        get_ruleset(name)
    except (ImportError, AttributeError):
        return False
    return True
