"""Repairs (PF-REPAIR-01..04, PF-FEAT-06, PF-BUILD-01): `repair` clears a mishap's broken flag or a
disabled (or sabotaged) engine after ten minutes of work."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder.board import creature, spec_of
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.catalog import EngineSpec
from rules.pathfinder.checks import actor_checks
from rules.pathfinder.commands import Repair
from rules.pathfinder.engine_stats import craft_dc
from rules.pathfinder.events import (
    ActionsSpent,
    CreaturesBecameBusy,
    EffectScheduled,
    EngineBecameBusy,
    Event,
)
from rules.pathfinder.results import RepairTried
from rules.pathfinder.rolls import SkillId, skill_check, untrained
from rules.pathfinder.sizes import size_index
from rules.pathfinder.state import Engine, PfState
from rules.pathfinder.time import ROUNDS_PER_MINUTE, engine_busy
from rules.ruleset import Outcome

REPAIR_ROUNDS = 10 * ROUNDS_PER_MINUTE
DISABLED_DC = 20
# PF-REPAIR-02: Field Repair DCs by class; the light ranged DC is the option
FIELD_REPAIR_DC = {
    ("siege_firearm", "heavy"): 25,
    ("siege_firearm", "medium"): 30,
    ("siege_firearm", "light"): 35,
    ("ranged", "heavy"): 20,
    ("ranged", "medium"): 25,
}


def repair(command: Repair, state: PfState, dice: Dice) -> Outcome[Event]:
    engine = get_engine(state, command.engine_id)
    repairer = creature(state, command.by)
    _check_fields(command, engine)
    if engine.destroyed:
        raise Rejected("engine_destroyed")
    if engine_busy(state, engine):
        raise Rejected("engine_busy")
    if command.kind == "broken" and not engine.broken_by_mishap:
        raise Rejected("engine_not_broken")
    if command.kind == "disabled" and not (engine.disabled or engine.sabotaged):
        raise Rejected("engine_not_disabled")
    if command.method == "field_repair" and not repairer.has_feat("field_repair"):
        raise Rejected("feat_required")
    skill: SkillId = command.skill if command.kind == "disabled" else "craft_siege_engine"
    dc = repair_dc(state, engine, command)
    if untrained(repairer, skill, dc):
        raise Rejected("untrained_skill")
    actor_checks(state, repairer, "full_round")
    check = skill_check(dice, repairer, skill, dc, take_10=command.take_10)
    # PF-REPAIR-04: both stay busy for the whole work, even when it fails
    ends = state.round + REPAIR_ROUNDS
    events: list[Event] = [
        ActionsSpent(creature_ids=(repairer.id,), action="full_round"),
        CreaturesBecameBusy(creature_ids=(repairer.id,), until_round=ends),
        EngineBecameBusy(engine_id=engine.id, until_round=ends),
    ]
    if check.success:
        events.append(
            EffectScheduled(kind="repair", due_round=ends, entity_id=engine.id, detail=command.kind)
        )
    result = RepairTried(dc=dc, check=check, success=check.success, completes_at_round=ends)
    return Outcome(result=result, events=tuple(events))


def _check_fields(command: Repair, engine: Engine) -> None:
    """`method` only for broken, `skill` only for disabled; Field Repair has DCs for ranged engines only."""
    if command.kind == "disabled" and command.method != "craft":
        raise Rejected("invalid_field")
    if command.kind == "broken" and command.skill != "craft_siege_engine":
        raise Rejected("invalid_field")
    if command.method == "field_repair" and not spec_of(engine).is_ranged:
        raise Rejected("invalid_field")


def repair_dc(state: PfState, engine: Engine, command: Repair) -> int:
    """PF-REPAIR-01..03: the Craft DC of the engine, the Field Repair class DC, or 20 for disabled."""
    if command.kind == "disabled":
        return DISABLED_DC
    if command.method == "craft":
        return craft_dc(engine.masterwork)
    repair_class = field_repair_class(spec_of(engine), engine.size)
    if repair_class == ("ranged", "light"):
        return state.options.field_repair_light_ranged_dc
    return FIELD_REPAIR_DC[repair_class]


def field_repair_class(spec: EngineSpec, size: str) -> tuple[str, str]:
    """PF-REPAIR-02: a ranged engine's Field Repair class, its kind and its weight by the size it has as
    placed: Large = light, Huge = medium, Gargantuan or larger = heavy. The catalog's `field_repair_class`,
    not loaded, agrees for every engine it gives one (tests/rules/pathfinder/test_catalog.py)."""
    kind = "siege_firearm" if spec.is_siege_firearm else "ranged"
    if size_index(size) <= size_index("L"):
        return kind, "light"
    return kind, "medium" if size == "H" else "heavy"
