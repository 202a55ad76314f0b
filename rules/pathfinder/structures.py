"""`add_structure` (PF-STRUCT-01..05): walls, gates and buildings as targets."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder import structure_stats as table
from rules.pathfinder.board import structure
from rules.pathfinder.commands import AddStructure
from rules.pathfinder.events import Event, StructureAdded
from rules.pathfinder.results import StructureSetUp
from rules.pathfinder.state import PfState, Square, Structure
from rules.ruleset import Outcome


def add_structure(command: AddStructure, state: PfState, dice: Dice) -> Outcome[Event]:
    position = _position(command, state)
    overrides = command.stat_overrides
    hardness = (
        overrides.hardness
        if overrides.hardness is not None
        else table.table_hardness(command.kind, command.material)
    )
    max_hp = (
        overrides.hp
        if overrides.hp is not None
        else table.table_hp(command.kind, command.material, command.size)
    )
    if hardness is None or max_hp is None:
        raise Rejected("missing_structure_stat")
    if command.kind == "building" and command.flimsy:
        max_hp //= 2
    if command.magic_treated:
        hardness, max_hp = 2 * hardness, 2 * max_hp
    hp = command.state.hp if command.state.hp is not None else max_hp
    broken, destroyed = hp * 2 <= max_hp, hp <= 0
    built = Structure(
        id=command.id,
        kind=command.kind,
        material=command.material,
        size=command.size if command.kind != "wall" else None,
        position=position,
        stacked_on=command.stacked_on,
        ac=table.structure_ac(command.kind, command.size),
        hardness=hardness,
        max_hp=max_hp,
        hp=hp,
        break_dc=_break_dc(command),
        break_dc_suspect=command.kind == "gate" and command.material == "iron" and overrides.break_dc is None,
        magic_treated=command.magic_treated,
        flimsy=command.flimsy,
        arcane_lock=command.arcane_lock,
        broken=broken,
        breached=(broken and command.kind != "wall") or (destroyed and command.kind == "wall"),
        destroyed=destroyed,
        open=command.state.open if command.kind == "gate" else None,
        conditions=("cave_in",) if destroyed and command.kind == "building" else (),
    )
    result = StructureSetUp(
        structure_id=built.id,
        kind=built.kind,
        ac=built.ac,
        hardness=built.hardness,
        max_hp=built.max_hp,
        hp=built.hp,
        break_dc=built.break_dc,
        break_dc_suspect=built.break_dc_suspect,
        magic_cost_gp=table.magic_cost(built.kind, built.size) if built.magic_treated else None,
        broken=built.broken,
        breached=built.breached,
    )
    return Outcome(result=result, events=(StructureAdded(structure=built),))


def _position(command: AddStructure, state: PfState) -> Square:
    """Fields only invalid for this kind (checked first); a stacked wall square takes the position below."""
    sized = command.kind in ("gate", "building")
    if sized and command.size not in table.SIZE_COLUMN:
        raise Rejected("invalid_field")
    if (command.flimsy and command.kind != "building") or (command.arcane_lock and command.kind != "gate"):
        raise Rejected("invalid_field")
    if command.state.open and command.kind != "gate":
        raise Rejected("invalid_field")
    if command.stacked_on is None:
        if command.position is None:
            raise Rejected("invalid_field")
        return command.position
    below = structure(state, command.stacked_on)
    taken = any(s.stacked_on == below.id for s in state.structures)
    if command.kind != "wall" or below.kind != "wall" or taken:
        raise Rejected("invalid_field")
    if command.position is not None and command.position != below.position:
        raise Rejected("invalid_field")
    return below.position


def _break_dc(command: AddStructure) -> int | None:
    if command.stat_overrides.break_dc is not None:
        return command.stat_overrides.break_dc
    if command.kind != "gate" or command.size is None:
        return None
    return table.gate_break_dc(command.material, command.size, command.arcane_lock)
