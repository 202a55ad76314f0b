"""`add_creature` and `move_creature` (§3.2–3.3, PF-FEAT-01, PF-GEN-08, PF-DIRECT-04, PF-ASSAULT-10)."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.frozen import replace
from rules.pathfinder.board import creature, engine, spec_of
from rules.pathfinder.commands import UNCHANGED, AddCreature, MoveCreature
from rules.pathfinder.events import CreatureAdded, CreatureMoved, Event
from rules.pathfinder.feats import feats_valid, proficient_with
from rules.pathfinder.results import CreatureJoined, CreatureWhereabouts
from rules.pathfinder.state import Creature, Inside, PfState
from rules.ruleset import Outcome

# PF-ASSAULT-10: creatures the upper storey of a siege tower holds, by tower size
TOWER_CAPACITY = {"L": 5, "H": 20, "G": 50, "C": 200}


def add_creature(command: AddCreature, state: PfState, dice: Dice) -> Outcome[Event]:
    new = Creature(
        id=command.id,
        size=command.size,
        ac=command.ac,
        touch_ac=command.touch_ac if command.touch_ac is not None else command.ac,
        hp=command.hp,
        max_hp=command.hp,
        speed_ft=command.speed_ft,
        bab=command.bab,
        str_mod=command.str_mod,
        dex_mod=command.dex_mod,
        int_mod=command.int_mod,
        saves=command.saves,
        skills=command.skills,
        feats=command.feats,
        bonus_feats=command.bonus_feats,
        proficiencies=command.proficiencies,
        features=command.features,
        position=command.position,
        side=command.side,
        conditions=("down",) if command.hp <= 0 else (),
    )
    if state.options.validate_feat_prerequisites and not feats_valid(new):
        raise Rejected("feat_prerequisite_missing")
    placed = replace(new, inside=checked_inside(state, command.inside, new.id))
    result = CreatureJoined(creature_id=new.id, proficient_with=tuple(proficient_with(new)))
    return Outcome(result=result, events=(CreatureAdded(creature=placed),))


def move_creature(command: MoveCreature, state: PfState, dice: Dice) -> Outcome[Event]:
    moving = creature(state, command.creature_id)
    position = command.position or moving.position
    inside = (
        moving.inside if command.inside == UNCHANGED else checked_inside(state, command.inside, moving.id)
    )
    result = CreatureWhereabouts(creature_id=moving.id, position=position, inside=inside)
    event = CreatureMoved(creature_id=moving.id, position=position, inside=inside)
    return Outcome(result=result, events=(event,))


def checked_inside(state: PfState, inside: Inside | None, creature_id: str) -> Inside | None:
    """`inside` must name a gallery or siege tower (a tower needs a level) with room on that storey."""
    if inside is None:
        return None
    host = engine(state, inside.engine_id)
    family = spec_of(host).family
    if family == "gallery":
        return Inside(engine_id=host.id, level=None)
    if family != "siege_tower" or inside.level is None:
        raise Rejected("invalid_field")
    if inside.level == "upper":
        aboard = [c for c in state.creatures if c.inside == inside and c.id != creature_id]
        if len(aboard) >= TOWER_CAPACITY[host.size]:
            raise Rejected("tower_full")
    return inside
