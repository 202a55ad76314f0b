"""The summaries `pathfinder-1` wrote, one per command type: each f-string its handler had at commit
3d3a22b^, with the handler's own variables read off the command and its result record."""

from __future__ import annotations

from collections.abc import Mapping

from rules.pathfinder import commands as c
from rules.pathfinder import results as r
from rules.pathfinder.shot import ShotResolved
from rules.v1 import Summary
from rules.v1.engine_names import ENGINE_NAMES


def advance_round(command: c.AdvanceRound, result: r.RoundsAdvance) -> str:
    done = len(result.completed)
    return f"round {result.round_before} → {result.round_after}" + (
        f"; {done} scheduled effect(s) completed" if done else ""
    )


def add_creature(command: c.AddCreature, result: r.CreatureJoined) -> str:
    return f"creature {result.creature_id} added"


def move_creature(command: c.MoveCreature, result: r.CreatureWhereabouts) -> str:
    return f"creature {result.creature_id} moved"


def place_engine(command: c.PlaceEngine, result: r.EngineSetUp) -> str:
    return f"{ENGINE_NAMES[result.catalog_id]} {result.engine_id} placed"


def add_structure(command: c.AddStructure, result: r.StructureSetUp) -> str:
    return f"{result.kind} {result.structure_id} added"


def assign_crew(command: c.AssignCrew, result: r.CrewAtWork) -> str:
    crew = len(command.creature_ids)
    return f"{command.engine_id} crewed by {crew}, led by {command.leader_id}: {result.crew_status}"


def set_wind(command: c.SetWind, result: r.WindNow) -> str:
    return f"wind is now {command.level}"


def cast_engine_spell(command: c.CastEngineSpell, result: r.SpellCastOn) -> str:
    until = f"until round {result.expires_at_round}"
    return f"{command.spell} on {command.engine_id}: +{result.spell_bonus} {until}"


def assemble(command: c.Assemble, result: r.AssemblyTried) -> str:
    return f"assembly of {command.engine_id}: {result.result}, until round {result.completes_at_round}"


def move_engine(command: c.MoveEngine, result: r.EngineRelocated) -> str:
    how = "carried" if command.carried else ("as cargo" if result.speed_ft is None else "under its own speed")
    return f"{command.engine_id} moved {result.distance_ft} ft {how}"


def load(command: c.Load, result: r.LoadProgress) -> str:
    return f"{command.engine_id} load {result.load_progress}/{result.load_requirement}" + (
        f" — loaded with {result.ammunition}" if result.loaded else ""
    )


def aim(command: c.Aim, result: r.AimProgress) -> str:
    # the target as version 1 printed it: the Python rendering of its `{kind_id: id}` shape
    progress = f"{result.aim_progress}/{result.aim_requirement}"
    return f"{command.engine_id} aims at {result.aim_target}: {progress}"


def fire(command: c.Fire, result: ShotResolved) -> str:
    told = "exploded" if result.exploded else ("hit" if result.hit else "missed")
    total = f" for {result.damage.total}" if result.damage is not None and result.hit else ""
    return f"{command.engine_id} fired ({result.kind}): {told}{total}"


def observe(command: c.Observe, result: r.Observation) -> str:
    return f"{command.observer_id} reports {result.reported_now} miss(es) of {command.engine_id}"


def repair(command: c.Repair, result: r.RepairTried) -> str:
    verdict = "succeeds" if result.success else "fails"
    done = f"done at round {result.completes_at_round}"
    return f"{command.by} repairs {command.engine_id} ({command.kind}): {verdict}, {done}"


def disable(command: c.Disable, result: r.DisableTried) -> str:
    verdict = f"takes effect at round {result.effective_at_round}" if result.success else "fails"
    work = f"works {result.rounds} rounds to {command.mode} {command.engine_id}"
    return f"{command.by} {work}: {verdict}"


def ram(command: c.Ram, result: ShotResolved) -> str:
    told = f"hit for {result.damage.total}" if result.damage is not None else "missed"
    return f"{command.engine_id} rammed {command.target.id}: {told}"


def break_structure(command: c.Break, result: r.BreakTried) -> str:
    verdict = "broken" if result.success else "holds"
    return f"break {command.structure_id}: {result.check.total} vs DC {result.dc}, {verdict}"


def operate_gate(command: c.OperateGate, result: r.GateWorked) -> str:
    now = f", now {'open' if result.open else 'closed'}" if result.toggled else ""
    return f"{command.structure_id}: {result.progress}/{result.requirement}{now}"


def raise_bridge(command: c.RaiseBridge, result: r.BridgeRaising) -> str:
    raised = ", raised" if result.raised else ""
    return f"{command.engine_id}: {result.progress}/{result.requirement}{raised}"


def use_corvus(command: c.UseCorvus, result: r.CorvusUsed) -> str:
    if result.check is None:
        return f"{command.engine_id} reset"
    return f"{command.engine_id} " + ("dropped" if result.success else "failed to drop; needs a reset")


def dislodge_corvus(command: c.DislodgeCorvus, result: r.CorvusDislodged) -> str:
    verdict = "destroyed" if result.corvus_destroyed else ("dislodged" if result.success else "holds")
    return f"{command.engine_id} {verdict} ({result.check.total} vs DC {result.dc})"


def crush(command: c.Crush, result: r.WheelCrushed) -> str:
    return f"{command.engine_id} crushed {len(command.target_ids)} creature(s) for {result.damage.total}"


SUMMARIES: Mapping[str, Summary] = {
    "advance_round": advance_round,
    "add_creature": add_creature,
    "move_creature": move_creature,
    "place_engine": place_engine,
    "add_structure": add_structure,
    "assign_crew": assign_crew,
    "set_wind": set_wind,
    "cast_engine_spell": cast_engine_spell,
    "assemble": assemble,
    "move_engine": move_engine,
    "load": load,
    "aim": aim,
    "fire": fire,
    "observe": observe,
    "repair": repair,
    "disable": disable,
    "ram": ram,
    "break": break_structure,
    "operate_gate": operate_gate,
    "raise_bridge": raise_bridge,
    "use_corvus": use_corvus,
    "dislodge_corvus": dislodge_corvus,
    "crush": crush,
}
