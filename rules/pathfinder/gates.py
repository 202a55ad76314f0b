"""`operate_gate` (§3.19, PF-STRUCT-08): full-round actions that open or close a gate."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder.board import creature, structure
from rules.pathfinder.checks import actors_check
from rules.pathfinder.commands import OperateGate
from rules.pathfinder.events import ActionsSpent, Event, GateOperated
from rules.pathfinder.results import GateWorked
from rules.pathfinder.state import PfState, Structure
from rules.ruleset import Outcome

LARGE_GATE_ACTIONS = 3
LARGER_GATE_ACTIONS = 30  # Huge or larger: at least a minute
OPERATORS_PER_ROUND = 3


def requirement(gate: Structure) -> int:
    return LARGE_GATE_ACTIONS if gate.size == "L" else LARGER_GATE_ACTIONS


def operate_gate(command: OperateGate, state: PfState, dice: Dice) -> Outcome[Event]:
    gate = _checked(command, state)
    ids = command.contributors
    needed = requirement(gate)
    if len(ids) > needed - gate.gate_progress:
        raise Rejected("exceeds_remaining")
    progress = gate.gate_progress + len(ids)
    toggled = progress >= needed
    now_open = not gate.open if toggled else bool(gate.open)
    events = (
        ActionsSpent(creature_ids=ids, action="full_round"),
        GateOperated(
            structure_id=gate.id,
            gate_progress=0 if toggled else progress,  # the requirement met, progress starts again
            open=now_open,
            operators_this_round=gate.gate_operators_this_round + len(ids),
        ),
    )
    result = GateWorked(progress=progress, requirement=needed, toggled=toggled, open=now_open)
    return Outcome(result=result, events=events)


def _checked(command: OperateGate, state: PfState) -> Structure:
    """§3.19 order up to the actor checks; `exceeds_remaining` comes last."""
    ids = command.contributors  # at least one, each once: the command's declaration (`check_fields`)
    gate = structure(state, command.structure_id)
    if gate.kind != "gate":
        raise Rejected("not_a_gate")
    if gate.breached:
        raise Rejected("gate_breached")
    if gate.destroyed:
        raise Rejected("structure_destroyed")
    if gate.gate_operators_this_round + len(ids) > OPERATORS_PER_ROUND:
        raise Rejected("too_many_contributors")  # counted over every operate_gate on it this round
    actors_check(state, (creature(state, c) for c in ids), "full_round")
    return gate
