"""`assign_crew` (PF-CREW-01..06): who crews an engine and what that crew can do."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder.board import creature, engine
from rules.pathfinder.commands import AssignCrew
from rules.pathfinder.crew_status import (
    action_unit,
    aim_requirement,
    aimed,
    crew_status,
    equivalents,
    load_requirement,
    size_penalty_helpers,
)
from rules.pathfinder.events import CrewAssigned, Event
from rules.pathfinder.evolve import evolve
from rules.pathfinder.geometry import number
from rules.pathfinder.results import CrewAtWork
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome


def assign_crew(command: AssignCrew, state: PfState, dice: Dice) -> Outcome[Event]:
    target = engine(state, command.engine_id)
    if not command.creature_ids or len(set(command.creature_ids)) != len(command.creature_ids):
        raise Rejected("invalid_field")
    if target.destroyed:
        raise Rejected("engine_destroyed")
    if command.leader_id not in command.creature_ids:
        raise Rejected("leader_not_in_crew")
    for member in (creature(state, cid) for cid in command.creature_ids):
        if member.down:
            raise Rejected("creature_down")
        if member.crewing is not None and member.crewing != target.id:
            raise Rejected("already_crewing")
    event = CrewAssigned(engine_id=target.id, creature_ids=command.creature_ids, leader_id=command.leader_id)
    after = evolve(state, event)
    crewed = engine(after, target.id)
    status = crew_status(after, crewed)
    result = CrewAtWork(
        crew_equivalents=number(equivalents(after, crewed)),
        crew_status=status,
        aim_requirement=aim_requirement(after, crewed),
        load_requirement=load_requirement(after, crewed),
        action_unit=action_unit(after, crewed),
        size_penalty_helpers=size_penalty_helpers(after, crewed),
        aim_progress=crewed.aim_progress,
        aimed=aimed(after, crewed),
    )
    return Outcome(result=result, events=(event,), state=after)
