"""Proficiency (PF-GEN-08) and the siege feats (PF-FEAT-01..06): who may use what, and prerequisites."""

from __future__ import annotations

from rules.pathfinder.catalog import ENGINES, SUPPORTED_ORDER, EngineSpec
from rules.pathfinder.state import Creature

SIEGE_ENGINEER = "siege_engineer"
MASTER_SIEGE_ENGINEER = "master_siege_engineer"
SIEGE_COMMANDER = "siege_commander"
SIEGE_GUNNER = "siege_gunner"
FIELD_REPAIR = "field_repair"


def proficient(creature: Creature, spec: EngineSpec, *, count_feat: bool = True) -> bool:
    """PF-GEN-08: Siege Engineer, the siege_engines group, firearms for siege firearms, or the engine's id."""
    if count_feat and creature.has_feat(SIEGE_ENGINEER):
        return True
    groups = creature.proficiencies
    if "siege_engines" in groups or spec.id in groups:
        return True
    return "firearms" in groups and spec.is_siege_firearm


def proficient_with(creature: Creature, *, count_feat: bool = True) -> list[str]:
    """The supported catalog engines the creature may use without −4, in catalog order."""
    return [eid for eid in SUPPORTED_ORDER if proficient(creature, ENGINES[eid], count_feat=count_feat)]


def _ranks(creature: Creature, skill: str) -> int:
    ranks: int = getattr(creature.skills, skill).ranks
    return ranks


def prerequisites_met(creature: Creature, feat: str) -> bool:
    """PF-FEAT-01 (bonus feats count as feats when another feat requires them)."""
    knowledge = _ranks(creature, "knowledge_engineering")
    profession = _ranks(creature, "profession_siege_engineer")
    if feat == SIEGE_ENGINEER:
        return max(knowledge, profession) >= 5 and bool(proficient_with(creature, count_feat=False))
    if feat == MASTER_SIEGE_ENGINEER:
        return creature.has_feat(SIEGE_ENGINEER) and knowledge >= 10
    if feat == SIEGE_COMMANDER:
        return _ranks(creature, "craft_siege_engine") >= 5 and (knowledge >= 5 or profession >= 1)
    if feat == SIEGE_GUNNER:
        return creature.has_feat(SIEGE_ENGINEER) and profession >= 5
    return True  # field_repair is not validated; other strings are ignored


def feats_valid(creature: Creature) -> bool:
    """Only `feats` are checked; `bonus_feats` skip the check."""
    return all(prerequisites_met(creature, feat) for feat in creature.feats)


def master_siege_engineer(leader: Creature | None) -> bool:
    """PF-FEAT-03: as crew leader, load and aim units become move actions."""
    return leader is not None and leader.has_feat(MASTER_SIEGE_ENGINEER)
