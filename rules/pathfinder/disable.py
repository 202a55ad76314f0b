"""Disabling and sabotage (PF-DISABLE-01): `disable` makes an engine inoperable or sabotaged some rounds
later; what a disabled or sabotaged engine then does lives in checks.py and sabotage.py."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder.board import creature
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.checks import actor_checks
from rules.pathfinder.commands import Disable
from rules.pathfinder.events import ActionsSpent, CreaturesBecameBusy, EffectScheduled, Event
from rules.pathfinder.results import DisableTried
from rules.pathfinder.rolls import skill_check, untrained
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome

DISABLE_DC = 20


def disable(command: Disable, state: PfState, dice: Dice) -> Outcome[Event]:
    engine = get_engine(state, command.engine_id)
    rogue = creature(state, command.by)
    if engine.destroyed:
        raise Rejected("engine_destroyed")
    if engine.disabled or engine.sabotaged:
        raise Rejected("already_disabled")
    if untrained(rogue, "disable_device", DISABLE_DC):
        raise Rejected("untrained_skill")
    actor_checks(state, rogue, "full_round")
    rounds = sum(dice.roll("disable_rounds", 4, 2, summed=(2,)))
    check = skill_check(dice, rogue, "disable_device", DISABLE_DC, take_10=command.take_10)
    ends = state.round + rounds
    events: list[Event] = [
        ActionsSpent(creature_ids=(rogue.id,), action="full_round"),
        CreaturesBecameBusy(creature_ids=(rogue.id,), until_round=ends),
    ]
    if check.success:
        events.append(
            EffectScheduled(kind="disable", due_round=ends, entity_id=engine.id, detail=command.mode)
        )
    result = DisableTried(
        rounds=rounds,
        dc=DISABLE_DC,
        check=check,
        success=check.success,
        # a failure takes no effect at all (PF-TIME-03): nothing becomes effective
        effective_at_round=ends if check.success else None,
        mode=command.mode,
    )
    return Outcome(result=result, events=tuple(events))
