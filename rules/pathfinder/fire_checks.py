"""The `fire` preconditions of §3.13, in the spec's order, ending in the `Shot` they leave standing."""

from __future__ import annotations

from rules.errors import Rejected
from rules.pathfinder.board import creature, leader_of, position_of, spec_of
from rules.pathfinder.checks import actor_checks, engine_checks
from rules.pathfinder.commands import Fire
from rules.pathfinder.crew_status import aimed
from rules.pathfinder.direct import cover_bonus
from rules.pathfinder.geometry import distance_ft
from rules.pathfinder.magic import effective_enhancement, empower_bonus
from rules.pathfinder.shot import Shot, ShotKind
from rules.pathfinder.sizes import size_index
from rules.pathfinder.state import Creature, Engine, PfState, Target
from rules.pathfinder.targeting import aim_mode, measure, target_destroyed, target_square
from rules.pathfinder.wind import can_fire

AREA_LENGTH_FT = {
    "firedrake": {"line": 60, "cone": 30},
    "firewyrm": {"line": 120, "cone": 60},
}  # PF-ENGINE-03
BLAST_RADIUS_FT = 30  # PF-AMMO-07


def check_fields(command: Fire, engine: Engine) -> None:
    """`invalid_field` first: a target for an engine that aims, `area` / `target_ids` where not allowed (the
    empower level's range and each id list's uniqueness are the command's declaration, checked before)."""
    spec = spec_of(engine)
    if command.target is not None and (spec.aim or 0) > 0:
        raise Rejected("invalid_field")
    if (command.area is not None) != (spec.family in AREA_LENGTH_FT):
        raise Rejected("invalid_field")
    blast = engine.loaded and engine.ammunition == "blast_shot"
    if (command.target_ids is not None) != blast or (blast and not command.target_ids):
        raise Rejected("invalid_field")


def checked_shot(command: Fire, state: PfState, engine: Engine) -> Shot:
    """Every refusal of §3.13 after the field checks, then the shot's context as read at its start."""
    spec = spec_of(engine)
    engine_checks(state, engine)
    if not spec.is_ranged:
        raise Rejected("not_a_ranged_engine")
    leader = leader_of(state, engine)
    assert leader is not None
    actor_checks(state, leader, "standard")
    if not can_fire(state.wind):
        raise Rejected("cannot_fire_in_tornado")
    if not engine.loaded:
        raise Rejected("not_loaded")
    target = _target(command, state, engine)
    mode = aim_mode(spec, target)
    assert mode is not None
    if target_destroyed(state, target):
        raise Rejected("target_destroyed")
    where = target_square(state, target)
    reach = (
        None
        if mode == "area"
        else measure(spec, mode, engine.position, where, state.options.max_range_increments)
    )
    ammunition = engine.ammunition or "standard"
    kind: ShotKind = "area" if mode == "area" else ("blast_shot" if ammunition == "blast_shot" else mode)
    _cover(state, command, target, kind)
    if ammunition == "entangling_bolt":
        _entangling(state, engine, target, reach.increments if reach else None)
    _out_of_area(state, command, engine)
    return Shot(
        state=state,
        engine=engine,
        spec=spec,
        leader=leader,
        kind=kind,
        mode=mode,
        target=target,
        reach=reach,
        ammunition=ammunition,
        broken=engine.broken,
        enhancement=effective_enhancement(engine),
        empower=empower_bonus(leader, command.empower_spell_level),  # not_a_siege_mage, last
        line_of_sight=command.line_of_sight,
        crew_sees_landing=command.line_of_sight
        if command.crew_sees_landing is None
        else command.crew_sees_landing,
        target_ids=command.area.target_ids if command.area else (command.target_ids or ()),
    )


def _target(command: Fire, state: PfState, engine: Engine) -> Target:
    """Aim-0 engines name their target in `fire` (PF-AIM-03); others fire at their aimed target."""
    spec = spec_of(engine)
    if not spec.aim:
        if command.target is None:
            raise Rejected("target_required")
        if aim_mode(spec, command.target) is None:
            raise Rejected("target_kind_invalid")
        return command.target
    if engine.aim_target is None or not aimed(state, engine):
        raise Rejected("not_aimed")
    return engine.aim_target


def _cover(state: PfState, command: Fire, target: Target, kind: ShotKind) -> None:
    """PF-DIRECT-04: a creature in total cover cannot be the target of a direct attack."""
    ids = (
        list(command.target_ids or ()) if kind == "blast_shot" else ([target.id] if kind == "direct" else [])
    )
    for ident in ids:
        found = next((c for c in state.creatures if c.id == ident), None)
        if found is not None and cover_bonus(state, found) is None:
            raise Rejected("target_has_total_cover")


def _entangling(state: PfState, engine: Engine, target: Target, increments: int | None) -> None:
    """PF-AMMO-09: creatures within one size of the ballista, first range increment only."""
    if target.kind != "creature" or target.id is None:
        raise Rejected("target_size_invalid")
    victim: Creature = creature(state, target.id)
    if abs(size_index(victim.size) - size_index(engine.size)) > 1:
        raise Rejected("target_size_invalid")
    if increments is not None and increments > 1:
        raise Rejected("out_of_range")


def _out_of_area(state: PfState, command: Fire, engine: Engine) -> None:
    """Blast-shot targets within 30 ft of the cannon; gout targets within the shape's length."""
    family = spec_of(engine).family
    if command.area is not None and family in AREA_LENGTH_FT:
        reach, ids = AREA_LENGTH_FT[family][command.area.shape], command.area.target_ids
    elif command.target_ids:
        reach, ids = BLAST_RADIUS_FT, command.target_ids
    else:
        return
    for ident in ids:
        if distance_ft(engine.position, position_of(state, ident)) > reach:
            raise Rejected("target_out_of_area")
