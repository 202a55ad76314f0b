"""The pathfinder decider: common checks (§2), then one handler per command in the module of its area
(close-assault engines, PF-ASSAULT-01..11, have one module each: ram, bridge, corvus, dislodge, crush)."""

from __future__ import annotations

from typing import assert_never

from rules.dice import Dice
from rules.pathfinder import (
    aim,
    assemble,
    breaching,
    bridge,
    corvus,
    creatures,
    crew,
    crush,
    disable,
    dislodge,
    fire,
    gates,
    indirect,
    load,
    magic,
    movement,
    placement,
    ram,
    repair,
    structures,
    time,
    wind,
)
from rules.pathfinder.checks import check_common
from rules.pathfinder.commands import (
    AddCreature,
    AddStructure,
    AdvanceRound,
    Aim,
    Assemble,
    AssignCrew,
    Break,
    CastEngineSpell,
    Command,
    Crush,
    Disable,
    DislodgeCorvus,
    Fire,
    Load,
    MoveCreature,
    MoveEngine,
    Observe,
    OperateGate,
    PlaceEngine,
    RaiseBridge,
    Ram,
    Repair,
    SetWind,
    UseCorvus,
)
from rules.pathfinder.events import Event
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome


def decide(command: Command, state: PfState, dice: Dice) -> Outcome[Event]:
    """Raise `Rejected(reason)` for a refused command; otherwise the result and events."""
    check_common(command, state, dice)
    match command:
        case AdvanceRound():
            return time.advance_round(command, state, dice)
        case AddCreature():
            return creatures.add_creature(command, state, dice)
        case MoveCreature():
            return creatures.move_creature(command, state, dice)
        case PlaceEngine():
            return placement.place_engine(command, state, dice)
        case AddStructure():
            return structures.add_structure(command, state, dice)
        case AssignCrew():
            return crew.assign_crew(command, state, dice)
        case SetWind():
            return wind.set_wind(command, state, dice)
        case CastEngineSpell():
            return magic.cast_engine_spell(command, state, dice)
        case Assemble():
            return assemble.assemble(command, state, dice)
        case MoveEngine():
            return movement.move_engine(command, state, dice)
        case Load():
            return load.load(command, state, dice)
        case Aim():
            return aim.aim(command, state, dice)
        case Fire():
            return fire.fire(command, state, dice)
        case Observe():
            return indirect.observe(command, state, dice)
        case Repair():
            return repair.repair(command, state, dice)
        case Disable():
            return disable.disable(command, state, dice)
        case Ram():
            return ram.ram(command, state, dice)
        case Break():
            return breaching.break_structure(command, state, dice)
        case OperateGate():
            return gates.operate_gate(command, state, dice)
        case RaiseBridge():
            return bridge.raise_bridge(command, state, dice)
        case UseCorvus():
            return corvus.use_corvus(command, state, dice)
        case DislodgeCorvus():
            return dislodge.dislodge_corvus(command, state, dice)
        case Crush():
            return crush.crush(command, state, dice)
        case _:
            assert_never(command)
