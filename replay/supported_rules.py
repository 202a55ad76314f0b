"""Whether this release can judge a battle: the ruleset and rules version its `battle_created` pinned are
ones it folds exactly as recorded (`Ruleset.rules_versions`). `siege verify`, the audit and
import ask here; a battle of rules this release does not have is reported as needing them, never as
tampered (a fold asks `rules.registry.refusal` too: replay/folds.py's `require_folded`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.registry import folded_versions


@dataclass(frozen=True, slots=True, kw_only=True)
class Unsupported:
    """A battle pinned to rules this release does not fold: which ones, and the versions it does fold."""

    ruleset: str
    rules_version: str | None
    supported: tuple[str, ...]  # empty when the release has no such ruleset at all

    @property
    def reason(self) -> str:
        folds = ", ".join(self.supported) or f"no version of {self.ruleset}"
        needs = f"the battle needs rules version {self.rules_version} of {self.ruleset}"
        return f"{needs}; this release folds {folds}"

    def wire(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "rules_version": self.rules_version,
            "supported": list(self.supported),
        }


def unsupported(created: Mapping[str, Any]) -> Unsupported | None:
    """None when this release folds the rules `created` (version 1's data) pins."""
    name, pinned = str(created.get("ruleset")), created.get("rules_version")
    versions = folded_versions(name)
    if isinstance(pinned, str) and pinned in versions:
        return None
    return Unsupported(
        ruleset=name, rules_version=pinned if isinstance(pinned, str) else None, supported=versions
    )
