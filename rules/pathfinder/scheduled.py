"""What each scheduled effect does once due (PF-TIME-03), in one table: the engine fields it sets, which
`evolve` applies to the state, and those of them `advance_round`'s result tells (§3.1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.pathfinder.state import ScheduledKind


@dataclass(frozen=True, slots=True, kw_only=True)
class Completion:
    """The fields a due effect sets on its engine, and `told`, those the result's `effect` reports: a
    sabotage's trigger is the rules' own bookkeeping, and a spell's end is told as the enhancement left
    (`tells_enhancement`) rather than as the spell it drops."""

    sets: Mapping[str, Any]
    told: tuple[str, ...] = ()
    tells_enhancement: bool = False


NOTHING = Completion(sets={})
# (kind, detail) -> what it does; a None detail stands for every detail the kind does not list
COMPLETIONS: dict[tuple[ScheduledKind, str | None], Completion] = {
    ("assembly", None): Completion(sets={"assembled": True}, told=("assembled",)),
    ("assembly_retry_open", None): NOTHING,  # the hour blocking a retry simply ends
    ("disable", "inoperable"): Completion(sets={"disabled": True}, told=("disabled",)),
    ("disable", None): Completion(  # sabotage
        sets={"sabotaged": True, "sabotage_triggered": False}, told=("sabotaged",)
    ),
    ("sabotage_failure", None): Completion(sets={"disabled": True}, told=("disabled",)),
    ("repair", "broken"): Completion(sets={"broken_by_mishap": False}, told=("broken_by_mishap",)),
    ("repair", None): Completion(  # a disabled (or sabotaged) engine
        sets={"disabled": False, "sabotaged": False, "sabotage_triggered": False},
        told=("disabled", "sabotaged"),
    ),
    ("spell_expiry", None): Completion(sets={"spell": None}, tells_enhancement=True),
}


def completion(kind: ScheduledKind, detail: str | None) -> Completion:
    """What the effect of that kind and detail does once due; every kind has its (kind, None) row."""
    return COMPLETIONS.get((kind, detail)) or COMPLETIONS[(kind, None)]
