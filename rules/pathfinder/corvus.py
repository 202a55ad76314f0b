"""The corvus (§3.21/3.22, PF-ASSAULT-06/07): dropping and resetting it, and dislodging it."""

from __future__ import annotations

from functools import reduce

from rules.codec import JSON
from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder import sabotage
from rules.pathfinder.checks import (
    Check,
    mods,
    plain_check,
    saving_throw,
    skill_check,
    strength_check,
    untrained,
)
from rules.pathfinder.commands import DislodgeCorvus, UseCorvus
from rules.pathfinder.events import (
    ActionKind,
    ActionsSpent,
    ConditionsAdded,
    CorvusChanged,
    EngineDestroyed,
    Event,
)
from rules.pathfinder.evolve import evolve
from rules.pathfinder.guards import actor_checks, engine_checks
from rules.pathfinder.lookup import creature, leader_of, spec_of
from rules.pathfinder.lookup import engine as get_engine
from rules.pathfinder.state import Corvus, Engine, PfState
from rules.ruleset import Outcome

DROP_DC = 10
DISLODGE_BASE_DC, PER_SMALL_OR_MEDIUM = 15, 5
DESTROY_MARGIN = 5
FALL_DC = 15


def _corvus(state: PfState, engine_id: str) -> tuple[Engine, Corvus]:
    engine = get_engine(state, engine_id)
    if spec_of(engine).family != "corvus":
        raise Rejected("not_a_corvus")
    return engine, engine.corvus or Corvus()


def use_corvus(command: UseCorvus, state: PfState, dice: Dice) -> Outcome:
    drop = command.action == "drop"
    if command.take_10 and not drop:
        raise Rejected("invalid_field")  # only the drop makes a check
    engine, corvus = _corvus(state, command.engine_id)
    engine_checks(state, engine)
    if drop and corvus.deployed:
        raise Rejected("corvus_already_deployed")
    if drop and corvus.needs_reset:
        raise Rejected("corvus_needs_reset")
    if not drop and not corvus.needs_reset:
        raise Rejected("nothing_to_reset")
    leader = leader_of(state, engine)
    assert leader is not None
    if drop and untrained(leader, "profession_siege_engineer", DROP_DC):
        raise Rejected("untrained_skill")
    actor_checks(state, leader, "full_round")
    check = (
        skill_check(dice, leader, "profession_siege_engineer", DROP_DC, take_10=command.take_10)
        if drop
        else None
    )
    now = Corvus(deployed=bool(check and check.success), needs_reset=check is not None and not check.success)
    events: list[Event] = [
        ActionsSpent(creature_ids=(leader.id,), action="full_round"),
        CorvusChanged(engine_id=engine.id, deployed=now.deployed, needs_reset=now.needs_reset),
    ]
    after = reduce(evolve, events, state)
    # PF-DISABLE-02: any use counts; §3.21 reports no sabotage field, the draw shows in `rolls`
    _, more = sabotage.after_use(after, get_engine(after, engine.id), dice)
    result: dict[str, JSON] = {
        "check": check.to_wire() if check else None,
        "success": check.success if check else None,
        "deployed": now.deployed,
        "needs_reset": now.needs_reset,
    }
    verb = "reset" if check is None else ("dropped" if check.success else "failed to drop; needs reset")
    return Outcome(result=result, summary=f"{engine.id} {verb}", events=(*events, *more))


def dislodge_corvus(command: DislodgeCorvus, state: PfState, dice: Dice) -> Outcome:
    strength = command.method == "strength"
    occupant_ids = command.occupant_ids
    if (command.driving_modifier is None) == (not strength) or len(set(occupant_ids)) != len(occupant_ids):
        raise Rejected("invalid_field")  # driving_modifier with driving only; occupants listed once
    engine, corvus = _corvus(state, command.engine_id)
    if not corvus.deployed or engine.destroyed:
        raise Rejected("corvus_not_deployed")
    by = creature(state, command.by)
    action: ActionKind = "full_round" if strength else "standard"
    actor_checks(state, by, action)
    check = _dislodge_check(command, state, dice)
    dc = check.target_number or 0
    margin = check.total - dc
    destroyed = bool(check.success) and margin >= DESTROY_MARGIN
    events: list[Event] = [ActionsSpent(creature_ids=(by.id,), action=action)]
    occupants: list[JSON] = []
    if check.success:
        events.append(CorvusChanged(engine_id=engine.id, deployed=False, needs_reset=corvus.needs_reset))
        events += [EngineDestroyed(engine_id=engine.id)] if destroyed else []
        occupants, falls = _occupants_save(command, state, dice)
        events += falls
    result: dict[str, JSON] = {
        "dc": dc,
        "check": check.to_wire(),
        "success": check.success,
        "margin": margin,
        "corvus_destroyed": destroyed,
        "occupants": occupants,
    }
    verdict = "destroyed" if destroyed else ("dislodged" if check.success else "holds")
    return Outcome(
        result=result, summary=f"{engine.id} {verdict} ({check.total} vs {dc})", events=tuple(events)
    )


def _dislodge_check(command: DislodgeCorvus, state: PfState, dice: Dice) -> Check:
    """DC 15 + 5 per Small or Medium occupant; Strength (`str`) or driving (`driving`)."""
    occupants = [creature(state, c) for c in command.occupant_ids]
    dc = DISLODGE_BASE_DC + PER_SMALL_OR_MEDIUM * sum(1 for o in occupants if o.size in ("S", "M"))
    if command.method == "strength":
        return strength_check(dice, creature(state, command.by), dc)
    return plain_check(dice, "check", mods(("driving", command.driving_modifier or 0)), dc)


def _occupants_save(command: DislodgeCorvus, state: PfState, dice: Dice) -> tuple[list[JSON], list[Event]]:
    """Each occupant saves Reflex DC 15 or gains `fallen`; saves drawn in creation order (PF-GEN-09)."""
    listed = set(command.occupant_ids)
    entries: list[JSON] = []
    events: list[Event] = []
    for occupant in (c for c in state.creatures if c.id in listed):
        save = saving_throw(dice, occupant, "ref", FALL_DC)
        entries.append({"id": occupant.id, "save": save.to_wire(), "fell": not save.success})
        if not save.success:
            events.append(
                ConditionsAdded(entity_kind="creature", entity_id=occupant.id, conditions=("fallen",))
            )
    return entries, events
