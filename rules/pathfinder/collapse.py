"""Wall collapse (PF-STRUCT-06) and which stacked square a shot can reach (PF-INDIRECT-07)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.pathfinder.board import find_structure
from rules.pathfinder.events import Event, StructureFell
from rules.pathfinder.state import PfState, Structure


@dataclass(frozen=True, slots=True, kw_only=True)
class Fall:
    structure_id: str
    hp_before: int
    hp_after: int
    broken: bool
    destroyed: bool


def reachable(state: PfState, structure: Structure) -> bool:
    """Standing and the lowest standing square of its stack (gates and buildings always)."""
    if structure.destroyed:
        return False
    if structure.kind != "wall" or structure.stacked_on is None:
        return True
    below = find_structure(state, structure.stacked_on)
    return below is None or below.destroyed


def collapse(state: PfState, destroyed_ids: list[str]) -> tuple[list[Fall], list[Event]]:
    """For each wall square destroyed (lowest first), the square above drops into the gap: hp becomes
    floor(hp / 2) − 1, it is broken, rests on what the destroyed one rested on; at hp ≤ 0 it goes on."""
    falls: list[Fall] = []
    events: list[Event] = []
    for gone_id in destroyed_ids:
        gone = find_structure(state, gone_id)
        if gone is None or gone.kind != "wall":
            continue
        rests_on = gone.stacked_on
        above = _above(state, gone.id)
        while above is not None:
            hp_after = above.hp // 2 - 1
            destroyed = hp_after <= 0
            falls.append(
                Fall(
                    structure_id=above.id,
                    hp_before=above.hp,
                    hp_after=hp_after,
                    broken=True,
                    destroyed=destroyed,
                )
            )
            events.append(
                StructureFell(
                    structure_id=above.id,
                    stacked_on=rests_on,
                    hp_after=hp_after,
                    broken=True,
                    destroyed=destroyed,
                )
            )
            above = _above(state, above.id) if destroyed else None
    return falls, events


def _above(state: PfState, structure_id: str) -> Structure | None:
    return next((s for s in state.structures if s.stacked_on == structure_id and not s.destroyed), None)
