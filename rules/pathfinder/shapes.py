"""The nested shapes pathfinder commands are sent with (spec §3): targets, contributions, starting states and
overrides, and the value lists their fields choose from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.declare import WireForm, wire
from rules.errors import Rejected
from rules.pathfinder.catalog import AMMUNITION, ENGINES
from rules.pathfinder.sizes import Size
from rules.pathfinder.state import EntityKind, Square, Successive, Target

AMMUNITION_IDS = tuple(AMMUNITION)  # PF-AMMO-01, in catalog order
FEATS = ("siege_engineer", "master_siege_engineer", "siege_commander", "siege_gunner", "field_repair")
PROFICIENCIES = ("siege_engines", "firearms", *ENGINES)  # PF-GEN-08: weapon groups or catalog ids
FEATURES = ("siege_mage", "gun_training")
KNOWN_FEATS = f"the rules know {', '.join(FEATS)}; other feats are accepted and ignored"
SIDE = "the side that controls it (access control only; null: the GM alone)"


# ---- targets: sent as {creature_id}, {engine_id}, {structure_id} or {square}, stored as a Target ----


@dataclass(frozen=True, slots=True, kw_only=True)
class EntityTarget:
    """`{creature_id}`, `{engine_id}` or `{structure_id}`: none or several is the rules' `invalid_field`."""

    creature_id: str | None = field(default=None, metadata=wire(omit_only=True))
    engine_id: str | None = field(default=None, metadata=wire(omit_only=True))
    structure_id: str | None = field(default=None, metadata=wire(omit_only=True))


@dataclass(frozen=True, slots=True, kw_only=True)
class AnyTarget(EntityTarget):
    """An entity target or `{square: {x, y}}` (PF-AIM-01); which kind an engine takes is the rules' call."""

    square: Square | None = field(default=None, metadata=wire(omit_only=True))


def to_target(sent: EntityTarget) -> Target:
    """The one thing a sent target names (spec §2: none or several is `invalid_field`)."""
    entities: tuple[tuple[EntityKind, str | None], ...] = (
        ("creature", sent.creature_id),
        ("engine", sent.engine_id),
        ("structure", sent.structure_id),
    )
    named = [(kind, entity_id) for kind, entity_id in entities if entity_id is not None]
    square = sent.square if isinstance(sent, AnyTarget) else None
    if len(named) + (square is not None) != 1:
        raise Rejected("invalid_field")
    if square is not None:
        return Target(kind="square", square=square)
    kind, entity_id = named[0]
    return Target(kind=kind, id=entity_id)


ENTITY_TARGET = WireForm(record=EntityTarget, to_record=to_target)
ANY_TARGET = WireForm(record=AnyTarget, to_record=to_target)


# ---- crew work ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Contribution:
    """One crew member's share of a `load` or `aim` (PF-LOAD-02): 2 actions need Master Siege Engineer."""

    creature_id: str = field(metadata=wire(ref="creature", acts=True))
    actions: int = field(default=1, metadata=wire(choices=(1, 2)))


@dataclass(frozen=True, slots=True, kw_only=True)
class TelekineticAssembly:
    """PF-ASSEMBLE-04: how many workers the spell replaces."""

    caster_level: int = field(metadata=wire(minimum=1, maximum=40))
    knowledge_engineering_ranks: int = field(metadata=wire(minimum=0, maximum=40))


@dataclass(frozen=True, slots=True, kw_only=True)
class Area:
    """PF-ENGINE-03: the gout's shape and the creatures the client places in it."""

    shape: Literal["line", "cone"]
    target_ids: tuple[str, ...] = field(default=(), metadata=wire(ref="creature", unique=True))


# ---- engine and structure set-up ----------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineStatOverrides:
    """PF-DEF-02: statistics the catalog lacks (springals) or that the table changes; `size`: corvus only."""

    targeting_dc: int | None = None
    hardness: int | None = field(default=None, metadata=wire(minimum=0))
    hp: int | None = field(default=None, metadata=wire(minimum=1, doc="base hit points"))
    size: Size | None = field(default=None, metadata=wire(doc="corvus only"))


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineStartState:
    """A starting state; which ammunition or aim target fits the engine is the rules' `invalid_field`."""

    loaded: bool = field(default=False, metadata=wire(doc="true also completes the load requirement"))
    ammunition: str = field(default="standard", metadata=wire(choices=AMMUNITION_IDS))
    aimed_at: Target | None = field(
        default=None, metadata=wire(form=ANY_TARGET, doc="aim target; aim progress = 2 × catalog aim")
    )
    broken: bool = field(default=False, metadata=wire(doc="sets broken_by_mishap"))
    hp: int | None = field(
        default=None, metadata=wire(doc="default: max_hp; at or below 0 the engine is destroyed")
    )
    successive: Successive = field(default_factory=Successive)


@dataclass(frozen=True, slots=True, kw_only=True)
class StructureOverrides:
    """PF-STRUCT-04: wall squares other than iron, and earth always, supply hardness and hp."""

    hardness: int | None = field(default=None, metadata=wire(minimum=0))
    hp: int | None = field(default=None, metadata=wire(minimum=1))
    break_dc: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StructureStartState:
    hp: int | None = field(
        default=None, metadata=wire(doc="default: max_hp; at or below half it starts broken")
    )
    open: bool = field(default=False, metadata=wire(doc="gates only"))
