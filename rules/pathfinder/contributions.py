"""Crew contributions of `load` and `aim` (PF-LOAD-01/02, PF-AIM-02, PF-FEAT-03): units and actions spent."""

from __future__ import annotations

from rules.errors import Rejected
from rules.pathfinder.board import creature
from rules.pathfinder.checks import actor_checks
from rules.pathfinder.crew_status import action_unit
from rules.pathfinder.events import ActionsSpent, Event
from rules.pathfinder.shapes import Contribution
from rules.pathfinder.state import Engine, PfState


def contribute(
    state: PfState, engine: Engine, contributors: tuple[Contribution, ...]
) -> tuple[int, list[Event]]:
    """Per contributor: crew, at most one unit without Master Siege Engineer (two with), actions left. A
    creature named twice never comes here: the command's record refuses it (`unique_by`, invalid_field)."""
    unit = action_unit(state, engine)
    units = 0
    events: list[Event] = []
    for part in contributors:
        member = creature(state, part.creature_id)
        if member.id not in engine.crew_ids:
            raise Rejected("not_crew")
        if part.actions < 1 or part.actions > (2 if unit == "move" else 1):
            raise Rejected("too_many_actions")
        count = part.actions if unit == "move" else 1
        actor_checks(state, member, unit, count)
        units += part.actions
        events.append(ActionsSpent(creature_ids=(member.id,), action=unit, count=count))
    return units, events
