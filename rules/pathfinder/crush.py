"""`crush` (§3.23, PF-ASSAULT-11): a crushing wheel rolls over creatures; one damage roll, Reflex halves."""

from __future__ import annotations

from functools import reduce

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder import sabotage
from rules.pathfinder.board import crew_of, spec_of
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.checks import actors_check, engine_checks
from rules.pathfinder.commands import Crush
from rules.pathfinder.damage import Blow, Effect, roll_damage
from rules.pathfinder.events import ActionsSpent, Event
from rules.pathfinder.evolve import evolve
from rules.pathfinder.geometry import distance_ft, half
from rules.pathfinder.impact import Struck, apply
from rules.pathfinder.magic import effective_enhancement
from rules.pathfinder.results import WheelCrushed
from rules.pathfinder.rolls import saving_throw
from rules.pathfinder.state import Engine, PfState
from rules.ruleset import Outcome

REFLEX_DC = 15


def crush(command: Crush, state: PfState, dice: Dice) -> Outcome[Event]:
    ids = command.target_ids  # at least one, each once: the command's declaration (`check_fields`)
    wheel = get_engine(state, command.engine_id)
    engine_checks(state, wheel)
    if spec_of(wheel).family != "crushing_wheel":
        raise Rejected("not_a_crushing_wheel")
    # target_destroyed: only engines and structures are destroyed, and crush names creatures only
    actors_check(state, crew_of(state, wheel), "full_round")
    expr = spec_of(wheel).damage
    assert expr is not None
    damage = roll_damage(dice, "damage", expr, _static(wheel))  # no critical (PF-CRIT-04)
    effects, events = _roll_over(state, wheel, set(ids), damage.total, dice)
    events = [ActionsSpent(creature_ids=wheel.crew_ids, action="full_round"), *events]
    after = reduce(evolve, events, state)
    sabotaged, more = sabotage.after_use(after, get_engine(after, wheel.id), dice)
    result = WheelCrushed(damage=damage, effects=effects, sabotage=sabotaged)
    return Outcome(result=result, events=(*events, *more), state=reduce(evolve, more, after))


def _static(wheel: Engine) -> int:
    """The static modifiers: enhancement and −2 broken (read at the start, PF-DEF-05)."""
    return effective_enhancement(wheel) - (2 if wheel.broken else 0)


def _roll_over(
    state: PfState, wheel: Engine, ids: set[str], total: int, dice: Dice
) -> tuple[tuple[Effect, ...], list[Event]]:
    """Saves in creation order (PF-GEN-09): failure full damage and `prone`, success half."""
    hits: list[tuple[Struck, Blow]] = []
    for victim in (c for c in state.creatures if c.id in ids):
        save = saving_throw(dice, victim, "ref", REFLEX_DC)
        distance = distance_ft(wheel.position, victim.position)
        blow = Blow(
            zone="target",
            distance_ft=distance,
            damage_in=total,
            save=save,
            damage_after_save=half(total) if save.success else total,
            conditions=() if save.success else ("prone",),
        )
        hits.append((Struck(kind="creature", entity=victim, distance_ft=distance), blow))
    effects, events, _ = apply(state, hits)  # creatures only: nothing collapses
    return tuple(effects), events
