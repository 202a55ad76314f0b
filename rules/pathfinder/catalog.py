"""The engine catalog (PF-ENGINE-01): pathfinder-engines.json, read once at import into frozen records by
`load`, which the tests call themselves (what runs at import only, no mutation test can reach)."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from rules.codec import JSON


@dataclass(frozen=True, slots=True, kw_only=True)
class DiceExpr:
    """A damage expression such as "3d8"."""

    count: int
    sides: int

    @staticmethod
    def parse(text: str | None) -> DiceExpr | None:
        if not text or "d" not in text:
            return None
        count, sides = text.split("d", 1)  # as the catalog prints them: a lower-case d
        if not (count.isdigit() and sides.isdigit()):
            return None
        return DiceExpr(count=int(count), sides=int(sides))


@dataclass(frozen=True, slots=True, kw_only=True)
class AmmoEntry:
    id: str
    name: str
    cost_gp: int | None
    weight_lb: int | None
    notes: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineSpec:
    id: str
    name: str
    category: str  # direct | indirect | siege_firearm | close_assault | other
    fire_mode: str | None  # direct | indirect | None (not a ranged engine)
    size: str | None
    cost_gp: int | None
    damage: DiceExpr | None
    damage_type: str | None
    critical: str | None
    threat_range_min: int | None
    critical_multiplier: int | None
    range_increment_ft: int | None
    min_range_ft: int | None
    crew: int | None
    aim: int | None
    load: int | None
    speed_ft: int | None
    hardness: int | None
    hp: int | None
    ac: int | None
    targeting_dc: int | None
    misfire: str | None
    misfire_max: int | None
    explosion_radius_ft: int | None
    ammunition: tuple[AmmoEntry, ...]
    material: str
    supported: bool
    must_assemble_on_site: bool
    superseded_by: str | None
    stats_verified: bool | None
    rule_ids: tuple[str, ...]
    family: str  # the engine family the rules name (`family_of`), worked out once: asked on every shot

    @property
    def is_ranged(self) -> bool:
        return self.fire_mode is not None

    @property
    def is_siege_firearm(self) -> bool:
        return self.category == "siege_firearm"

    @property
    def ammunition_ids(self) -> tuple[str, ...]:
        return tuple(a.id for a in self.ammunition)


@dataclass(frozen=True, slots=True, kw_only=True)
class AmmunitionType:
    """A catalog `ammunition_types` entry; `compatible` None means every ranged engine."""

    id: str
    cost_gp: int | None
    weight_lb: int | None
    compatible: tuple[str, ...] | None
    damage: DiceExpr | None
    damage_text: str | None
    damage_type: str | None
    compatibility_is_a_guess: bool
    rule_ids: tuple[str, ...]


FAMILIES = (
    "ballista_gate_breaker",
    "ballista",
    "cannon",
    "firedrake",
    "firewyrm",
    "bombard",
    "catapult",
    "springal_rocket",
    "springal",
    "trebuchet",
    "bridge_assault",
    "corvus",
    "gallery",
    "ladder_escalade",
    "ram",
    "siege_tower",
    "crushing_wheel",
)


def family_of(engine_id: str) -> str:
    """The family an engine id belongs to: ballista, cannon, bombard, catapult, ram, siege_tower, …, `legacy`
    for the Core Rulebook's (`crb_`) and `other` for none of them; the longest family is listed first."""
    if engine_id.startswith("crb_"):
        return "legacy"
    for family in FAMILIES:
        if engine_id.startswith(family):
            return family
    return "other"


def _engine(raw: dict[str, Any]) -> EngineSpec:
    return EngineSpec(
        id=raw["id"],
        name=raw["name"],
        category=raw["category"],
        fire_mode=raw["fire_mode"],
        size=raw["size"],
        cost_gp=raw["cost_gp"],
        damage=DiceExpr.parse(raw["damage"]),
        damage_type=raw["damage_type"],
        critical=raw["critical"],
        threat_range_min=raw["threat_range_min"],
        critical_multiplier=raw["critical_multiplier"],
        range_increment_ft=raw["range_increment_ft"],
        min_range_ft=raw["min_range_ft"],
        crew=raw["crew"],
        aim=raw["aim"],
        load=raw["load"],
        speed_ft=raw["speed_ft"],
        hardness=raw["hardness"],
        hp=raw["hp"],
        ac=raw["ac"],
        targeting_dc=raw["targeting_dc"],
        misfire=raw["misfire"],
        misfire_max=raw["misfire_max"],
        explosion_radius_ft=raw["explosion_radius_ft"],
        ammunition=tuple(
            AmmoEntry(
                id=a["id"], name=a["name"], cost_gp=a["cost_gp"], weight_lb=a["weight_lb"], notes=a["notes"]
            )
            for a in raw["ammunition"]
        ),
        material=raw["material"],
        supported=raw["supported"],
        must_assemble_on_site=raw["must_assemble_on_site"],
        superseded_by=raw["superseded_by"],
        stats_verified=raw.get("stats_verified"),
        rule_ids=tuple(raw.get("rule_ids") or ()),
        family=family_of(raw["id"]),
    )


def _ammunition(raw: dict[str, Any]) -> AmmunitionType:
    compatible = raw.get("compatible")
    damage_text = raw.get("damage")
    return AmmunitionType(
        id=raw["id"],
        cost_gp=raw.get("cost_gp"),
        weight_lb=raw.get("weight_lb"),
        compatible=tuple(compatible) if isinstance(compatible, list) else None,
        damage=DiceExpr.parse(damage_text),
        damage_text=damage_text,
        damage_type=raw.get("damage_type"),
        compatibility_is_a_guess=bool(raw.get("compatibility_is_a_guess", False)),
        rule_ids=tuple(raw.get("rule_ids") or ()),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Catalog:
    version: int
    engines: dict[str, EngineSpec]  # by id, in the file's order
    ammunition: dict[str, AmmunitionType]


def load(raw: Mapping[str, Any]) -> Catalog:
    """The records of a catalog laid out as pathfinder-engines.json is."""
    return Catalog(
        version=raw["catalog_version"],
        engines={entry["id"]: _engine(entry) for entry in raw["engines"]},
        ammunition={entry["id"]: _ammunition(entry) for entry in raw["ammunition_types"]},
    )


_RAW: dict[str, Any] = json.loads(
    resources.files(__package__).joinpath("data/engines.json").read_text("utf-8")
)
_LOADED = load(_RAW)
CATALOG_VERSION: int = _LOADED.version
ENGINES: dict[str, EngineSpec] = _LOADED.engines
AMMUNITION: dict[str, AmmunitionType] = _LOADED.ammunition
SUPPORTED_ORDER: tuple[str, ...] = tuple(e.id for e in ENGINES.values() if e.supported)


def engine_spec(catalog_id: str) -> EngineSpec:
    return ENGINES[catalog_id]


def raw_catalog() -> dict[str, JSON]:
    """The catalog exactly as shipped (guess markers and notes kept), for GET /rulesets/pathfinder."""
    return copy.deepcopy(_RAW)
