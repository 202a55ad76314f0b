"""The corvus (§3.21, PF-ASSAULT-06): dropping it with a Profession check, and resetting it after a miss."""

from __future__ import annotations

from functools import reduce

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder import sabotage
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.board import leader_of, spec_of
from rules.pathfinder.checks import actor_checks, engine_checks
from rules.pathfinder.commands import UseCorvus
from rules.pathfinder.events import ActionsSpent, CorvusChanged, Event
from rules.pathfinder.evolve import evolve
from rules.pathfinder.results import CorvusUsed
from rules.pathfinder.rolls import Check, SkillId, skill_check, untrained
from rules.pathfinder.state import Corvus, Creature, Engine, PfState
from rules.ruleset import Outcome

DROP_DC = 10
DROP_SKILL: SkillId = "profession_siege_engineer"


def corvus_of(state: PfState, engine_id: str) -> tuple[Engine, Corvus]:
    """The engine and its corvus state; `not_a_corvus` for any other engine."""
    engine = get_engine(state, engine_id)
    if spec_of(engine).family != "corvus":
        raise Rejected("not_a_corvus")
    return engine, engine.corvus or Corvus()


def use_corvus(command: UseCorvus, state: PfState, dice: Dice) -> Outcome[Event]:
    engine, leader = _checked(command, state)
    drop = command.action == "drop"
    check = skill_check(dice, leader, DROP_SKILL, DROP_DC, take_10=command.take_10) if drop else None
    # a failed drop leaves it needing a reset; a reset leaves it ready, not deployed
    now = Corvus(deployed=bool(check and check.success), needs_reset=check is not None and not check.success)
    events: list[Event] = [
        ActionsSpent(creature_ids=(leader.id,), action="full_round"),
        CorvusChanged(engine_id=engine.id, deployed=now.deployed, needs_reset=now.needs_reset),
    ]
    after = reduce(evolve, events, state)
    # PF-DISABLE-02: any use counts; §3.21 reports no sabotage field, the draw shows in `rolls`
    _, more = sabotage.after_use(after, get_engine(after, engine.id), dice)
    return Outcome(result=_result(check, now), events=(*events, *more), state=reduce(evolve, more, after))


def _checked(command: UseCorvus, state: PfState) -> tuple[Engine, Creature]:
    """§3.21 order: not_a_corvus, engine checks, the corvus's own state, untrained_skill, the leader."""
    drop = command.action == "drop"
    if command.take_10 and not drop:
        raise Rejected("invalid_field")  # only the drop makes a check
    engine, corvus = corvus_of(state, command.engine_id)
    engine_checks(state, engine)
    if drop and corvus.deployed:
        raise Rejected("corvus_already_deployed")
    if drop and corvus.needs_reset:
        raise Rejected("corvus_needs_reset")
    if not drop and not corvus.needs_reset:
        raise Rejected("nothing_to_reset")
    leader = leader_of(state, engine)
    assert leader is not None  # engine checks proved a crew
    if drop and untrained(leader, DROP_SKILL, DROP_DC):
        raise Rejected("untrained_skill")
    actor_checks(state, leader, "full_round")
    return engine, leader


def _result(check: Check | None, now: Corvus) -> CorvusUsed:
    return CorvusUsed(
        check=check,
        success=check.success if check else None,
        deployed=now.deployed,
        needs_reset=now.needs_reset,
    )
