"""Rounds and actions (PF-TIME-01..05): the action budget, busy checks and `advance_round`."""

from __future__ import annotations

from functools import cache

from rules.codec import JSON
from rules.dice import Dice
from rules.frozen import replace
from rules.pathfinder.board import find_engine
from rules.pathfinder.commands import AdvanceRound
from rules.pathfinder.events import ActionKind, Event, RoundsAdvanced, ScheduledEffectCompleted
from rules.pathfinder.magic import effective_enhancement
from rules.pathfinder.results import CompletedEffect, RoundsAdvance
from rules.pathfinder.scheduled import completion
from rules.pathfinder.state import Actions, Creature, Engine, PfState, Scheduled
from rules.ruleset import Outcome

ROUNDS_PER_MINUTE = 10
ROUNDS_PER_HOUR = 600


def can_spend(actions: Actions, action: ActionKind, count: int = 1) -> bool:
    """PF-TIME-02: whether `count` actions of that kind still fit in this round's budget."""
    try:
        spend(actions, action, count)
    except ValueError:
        return False
    return True


@cache  # four budgets, three kinds, a count or two: every spend of a long battle is one of a few dozen
def spend(actions: Actions, action: ActionKind, count: int = 1) -> Actions:
    """A full-round action uses both; a move uses the move action, else the standard one."""
    for _ in range(count):
        if action == "full_round":
            if not (actions.standard and actions.move):
                raise ValueError(action)
            actions = Actions(standard=False, move=False)
        elif action == "move" and actions.move:
            actions = replace(actions, move=False)
        elif actions.standard:  # a standard action, or a move taken from the standard action
            actions = replace(actions, standard=False)
        else:
            raise ValueError(action)
    return actions


def creature_busy(state: PfState, creature: Creature) -> bool:
    """PF-TIME-04: busy until the round of its task's effect begins."""
    return creature.busy_until_round is not None and state.round < creature.busy_until_round


def engine_busy(state: PfState, engine: Engine) -> bool:
    return engine.busy_until_round is not None and state.round < engine.busy_until_round


def advance_round(command: AdvanceRound, state: PfState, dice: Dice) -> Outcome[Event]:
    """PF-TIME-01/03: jump the counter, then apply the effects now due in (due round, scheduling) order."""
    after = state.round + command.rounds
    due = sorted((s for s in state.schedule if s.due_round <= after), key=lambda s: (s.due_round, s.seq))
    events: list[Event] = [RoundsAdvanced(round_before=state.round, round_after=after)]
    completed: list[CompletedEffect] = []
    for item in due:
        events.append(
            ScheduledEffectCompleted(
                seq=item.seq, kind=item.kind, entity_id=item.entity_id, detail=item.detail
            )
        )
        completed.append(
            CompletedEffect(
                round=item.due_round, kind=item.kind, entity_id=item.entity_id, effect=_effect(state, item)
            )
        )
    result = RoundsAdvance(round_before=state.round, round_after=after, completed=tuple(completed))
    return Outcome(result=result, events=tuple(events))


def _effect(state: PfState, item: Scheduled) -> dict[str, JSON]:
    """The state change a completed effect makes, as §3.1 writes it (rules/pathfinder/scheduled.py)."""
    done = completion(item.kind, item.detail)
    if done.tells_enhancement:
        engine = find_engine(state, item.entity_id)
        return {"effective_enhancement": effective_enhancement(replace(engine, **done.sets)) if engine else 0}
    return {name: done.sets[name] for name in done.told}
