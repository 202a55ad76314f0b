"""Damage rolls (PF-CRIT-03 dice, PF-GEN-10 minimum 1) and their application to creatures, engines and
structures (PF-GEN-10 hardness, PF-DEF-05/06 broken and destroyed, PF-STRUCT-05 broken and breached)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import Dice
from rules.pathfinder.board import spec_of
from rules.pathfinder.catalog import DiceExpr
from rules.pathfinder.events import (
    ConditionsAdded,
    EngineDestroyed,
    Event,
    HitPointsChanged,
    StructureStatusChanged,
)
from rules.pathfinder.rolls import Save
from rules.pathfinder.state import Creature, Engine, PfState, Structure

Zone = str  # target | splash | burst | inner | outer | area | explosion


@dataclass(frozen=True, slots=True, kw_only=True)
class DamageRoll:
    """`dice` every value drawn; `static` one set of static modifiers; `total` and `base` per PF-CRIT-03."""

    dice: tuple[int, ...]
    static: int
    total: int
    base: int


def roll_damage(dice: Dice, slot: str, expr: DiceExpr, static: int, multiplier: int = 1) -> DamageRoll:
    """m × n dice from one draw; the static modifiers count m times; a total below 1 becomes 1."""
    groups = (expr.count, expr.count * (multiplier - 1)) if multiplier > 1 else (expr.count,)
    values = tuple(dice.roll(slot, expr.sides, expr.count * multiplier, summed=groups))
    total = max(1, sum(values) + multiplier * static)
    base = max(1, sum(values[: expr.count]) + static)
    return DamageRoll(dice=values, static=static, total=total, base=base)


@dataclass(frozen=True, slots=True, kw_only=True)
class Effect:
    """One entry of a result's `effects` (§3.13)."""

    entity_kind: str
    entity_id: str
    distance_ft: int
    zone: Zone
    damage_in: int
    save: Save | None
    damage_after_save: int
    hardness_applied: int
    hp_loss: int
    hp_before: int
    hp_after: int
    conditions_added: tuple[str, ...]
    cave_in: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Blow:
    """What reaches one entity: damage before and after its save, and conditions the ammunition adds."""

    zone: Zone
    distance_ft: int
    damage_in: int
    save: Save | None = None
    damage_after_save: int | None = None  # None: same as damage_in
    conditions: tuple[str, ...] = ()
    ignore_hardness: bool = False

    @property
    def damage(self) -> int:
        return self.damage_in if self.damage_after_save is None else self.damage_after_save


def _conditions(event_kind: str, entity_id: str, tags: list[str]) -> list[Event]:
    if not tags:
        return []
    return [ConditionsAdded(entity_kind=event_kind, entity_id=entity_id, conditions=tuple(tags))]  # type: ignore[arg-type]


def hit_creature(state: PfState, creature: Creature, blow: Blow) -> tuple[Effect, list[Event]]:
    """Creatures lose hp equal to the damage, no hardness; hp ≤ 0 adds `down`."""
    hp_after = creature.hp - blow.damage
    tags = [c for c in blow.conditions if c not in creature.conditions]
    if hp_after <= 0 and not creature.down:
        tags.append("down")
    events: list[Event] = [HitPointsChanged(entity_kind="creature", entity_id=creature.id, hp_after=hp_after)]
    events += _conditions("creature", creature.id, tags)
    return _effect("creature", creature.id, blow, 0, creature.hp, hp_after, tags), events


def hit_engine(state: PfState, engine: Engine, blow: Blow) -> tuple[Effect, list[Event]]:
    """Hardness first (never halved); broken at half hp, destroyed at 0 — a siege tower caves in."""
    hardness = 0 if blow.ignore_hardness else engine.hardness
    hp_after = engine.hp - max(0, blow.damage - hardness)
    tags = [c for c in blow.conditions if c not in engine.conditions]
    if hp_after * 2 <= engine.max_hp and not engine.broken:
        tags.append("broken")
    destroyed = hp_after <= 0 and not engine.destroyed
    events: list[Event] = [HitPointsChanged(entity_kind="engine", entity_id=engine.id, hp_after=hp_after)]
    events += _conditions("engine", engine.id, [t for t in tags if t not in ("broken",)])
    cave_in = False
    if destroyed:
        tags.append("destroyed")
        events.append(EngineDestroyed(engine_id=engine.id))
        if spec_of(engine).family == "siege_tower":
            cave_in = True  # PF-ASSAULT-10: everyone inside is caught in the collapse
            for inside in (c for c in state.creatures if c.inside and c.inside.engine_id == engine.id):
                events += _conditions("creature", inside.id, ["cave_in"])
    effect = _effect("engine", engine.id, blow, hardness, engine.hp, hp_after, tags, cave_in)
    return effect, events


def hit_structure(state: PfState, structure: Structure, blow: Blow) -> tuple[Effect, list[Event]]:
    """Hardness halved while broken; at half hp broken (a gate or building breached); at 0 destroyed."""
    hardness = 0 if blow.ignore_hardness else structure.effective_hardness
    hp_after = structure.hp - max(0, blow.damage - hardness)
    broken = structure.broken or hp_after * 2 <= structure.max_hp
    destroyed = structure.destroyed or hp_after <= 0
    wall = structure.kind == "wall"
    breached = structure.breached or (broken and not wall) or (destroyed and wall)
    cave_in = destroyed and not structure.destroyed and structure.kind == "building"
    tags = [c for c in blow.conditions if c not in structure.conditions]
    tags += [
        name
        for name, now, before in (
            ("broken", broken, structure.broken),
            ("breached", breached, structure.breached),
            ("destroyed", destroyed, structure.destroyed),
        )
        if now and not before
    ]
    events: list[Event] = [
        HitPointsChanged(entity_kind="structure", entity_id=structure.id, hp_after=hp_after)
    ]
    if (broken, breached, destroyed) != (structure.broken, structure.breached, structure.destroyed):
        events.append(
            StructureStatusChanged(
                structure_id=structure.id, broken=broken, breached=breached, destroyed=destroyed
            )
        )
    own = [t for t in blow.conditions if t not in structure.conditions] + (["cave_in"] if cave_in else [])
    events += _conditions("structure", structure.id, own)
    return _effect("structure", structure.id, blow, hardness, structure.hp, hp_after, tags, cave_in), events


def _effect(
    kind: str,
    entity_id: str,
    blow: Blow,
    hardness: int,
    hp_before: int,
    hp_after: int,
    tags: list[str],
    cave_in: bool = False,
) -> Effect:
    return Effect(
        entity_kind=kind,
        entity_id=entity_id,
        distance_ft=blow.distance_ft,
        zone=blow.zone,
        damage_in=blow.damage_in,
        save=blow.save,
        damage_after_save=blow.damage,
        hardness_applied=hardness,
        hp_loss=hp_before - hp_after,
        hp_before=hp_before,
        hp_after=hp_after,
        conditions_added=tuple(tags),
        cave_in=cave_in,
    )
