"""Magic engines (PF-MAGIC-03..05): effective enhancement, engine spells and the siege mage's empower."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.commands import CastEngineSpell
from rules.pathfinder.events import EffectScheduled, Event, SpellCast
from rules.pathfinder.results import SpellCastOn
from rules.pathfinder.state import Creature, Engine, EngineSpell, PfState
from rules.ruleset import Outcome


def effective_enhancement(engine: Engine) -> int:
    """PF-MAGIC-03: the higher of the engine's own enhancement and an active spell's bonus (no stacking)."""
    return max(engine.enhancement, engine.spell.bonus if engine.spell else 0)


def spell_bonus(spell: str, caster_level: int) -> int:
    """PF-MAGIC-04: +1, or min(5, floor(CL / 4)) and at least +1 for the greater spell."""
    if spell == "magic_siege_engine":
        return 1
    return max(1, min(5, caster_level // 4))


def empower_bonus(leader: Creature | None, level: int) -> int:
    """PF-MAGIC-05: +N on the roll (and +3N on damage) for a siege-mage leader; rejected otherwise."""
    if level == 0:
        return 0
    if leader is None or "siege_mage" not in leader.features:
        raise Rejected("not_a_siege_mage")
    return level


def cast_engine_spell(command: CastEngineSpell, state: PfState, dice: Dice) -> Outcome[Event]:
    engine = get_engine(state, command.engine_id)
    if engine.destroyed:
        raise Rejected("engine_destroyed")
    bonus = spell_bonus(command.spell, command.caster_level)
    expires = state.round + command.duration_rounds
    spell = EngineSpell(spell=command.spell, bonus=bonus, cast_round=state.round, expires_at_round=expires)
    effective = max(engine.enhancement, bonus)
    result = SpellCastOn(spell_bonus=bonus, effective_enhancement=effective, expires_at_round=expires)
    events = (
        SpellCast(engine_id=engine.id, spell=spell),
        EffectScheduled(kind="spell_expiry", due_round=expires, entity_id=engine.id),
    )
    return Outcome(
        result=result,
        events=events,
    )
