"""The ids a command names, creates and acts with, read off its declaration (`ref`, `new`, `acts`, `side`).

Each ruleset says what a kind of id means on its state (`known`, `owner`); these walkers only collect.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import cache
from typing import TypeVar

from rules.declare import Nullable, Rec, Sentinel, Seq, Shape, Tagged, plan, spec_of
from rules.errors import Rejected

S = TypeVar("S")
Ref = tuple[str, str]  # (entity kind, id)
Named = tuple[str, Ref, bool]  # (field name, the entity it names, whether the command acts with it)
# (state, kind, id) -> the sides owning that entity: empty for an unknown id, None for the GM's alone
Owner = Callable[[S, str, str], frozenset[str] | None]
# (state, kind, id) -> whether the state holds that entity as that kind (`any`: as anything)
Known = Callable[[S, str, str], bool]


def walk(command: object) -> list[Named]:
    """Every id the command names: the field it was sent in, the entity it must be, whether the command acts
    with it. One walk serves a command's first checks (`check_ids`, then its actors)."""
    return _walk(command, False)


def references(command: object) -> list[Ref]:
    """Every existing entity the command names, with the kind it must be."""
    return [ref for _, ref, _ in _walk(command, False)]


def named_references(command: object) -> list[tuple[str, Ref]]:
    """`references` with the name of the field each id was sent in (an `unknown_entity`'s detail)."""
    return [(name, ref) for name, ref, _ in _walk(command, False)]


def actors(command: object) -> list[Ref]:
    """The entities the command acts with (not those it acts upon)."""
    return [ref for _, ref, acting in _walk(command, False) if acting]


def new_ids(command: object) -> list[str]:
    """Ids the command creates; they must be unused across the battle."""
    return [getattr(command, name) for name in _creates(_record(command))]


@cache
def _creates(record: type) -> tuple[str, ...]:
    return tuple(p.name for p in plan(record) if p.facts.new)


def check_ids(command: object, state: S, known: Known[S], walked: list[Named] | None = None) -> None:
    """Spec §2, first for every command of both rulesets: each id it names exists as the kind its field
    needs (`unknown_entity`), each id it creates is unused (`duplicate_id`). `walked`: `walk(command)`, when
    the caller has it already."""
    for name, (kind, entity_id), _ in _walk(command, False) if walked is None else walked:
        if not known(state, kind, entity_id):
            raise Rejected("unknown_entity", field=name, id=entity_id, kind=kind)
    for entity_id in new_ids(command):
        if known(state, "any", entity_id):
            raise Rejected("duplicate_id", id=entity_id)


def acting_sides(command: object, state: S, owner: Owner[S]) -> frozenset[str] | None:
    """The sides a command acts for; None when only the referee may send it."""
    if spec_of(_record(command)).referee:
        return None
    sides: set[str] = set()
    for p in plan(_record(command)):
        if p.facts.side:
            side = getattr(command, p.name)
            if side is None:
                return None
            sides.add(side)
    for kind, entity_id in actors(command):
        owned = owner(state, kind, entity_id)
        if owned is None:
            return None
        sides |= owned
    return frozenset(sides)


def _walk(record: object, acting: bool) -> list[Named]:
    found: list[Named] = []
    _collect(record, acting, found)
    return found


def _collect(record: object, acting: bool, found: list[Named]) -> None:
    # appends to one list: nested generators cost twice as much, and every folded command is walked
    for name, kind, kind_from, acts, nested in _relevant(_record(record)):
        value = getattr(record, name)
        if value is None:
            continue
        if kind_from is not None:
            found.append((name, (getattr(record, kind_from), value), acting or acts))
        elif kind is not None:
            for entity_id in value if isinstance(value, tuple) else (value,):
                found.append((name, (kind, entity_id), acting or acts))
        elif nested:
            for item in value if isinstance(value, tuple) else (value,):
                if dataclasses.is_dataclass(item):  # not a marker such as "unchanged"
                    _collect(item, acting or acts, found)


@cache
def _relevant(record: type) -> tuple[tuple[str, str | None, str | None, bool, bool], ...]:
    """The fields that name ids, or hold records that do (computed once per record type: the walk runs in
    every command's first checks)."""
    return tuple(
        (p.name, p.facts.ref, p.facts.ref_from, p.facts.acts, _names_ids(p.shape))
        for p in plan(record)
        if p.facts.ref or p.facts.ref_from or _names_ids(p.shape)
    )


def _names_ids(shape: Shape) -> bool:
    """Whether a field of this shape holds a record that names an id, at any depth."""
    match shape:
        case Rec(record):
            return bool(_relevant(record))
        case Tagged(_, variants):
            return any(_relevant(variant) for variant in variants.values())
        case Nullable(inner) | Sentinel(inner) | Seq(inner):
            return _names_ids(inner)
        case _:
            return False


def _record(value: object) -> type:
    kind: type = type(value)
    return kind
