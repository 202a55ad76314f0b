"""What the kinds of id a pathfinder command names mean on the state (§2 `unknown_entity`, side tokens)."""

from __future__ import annotations

from rules.pathfinder.board import find_creature, find_engine, find_structure, kind_of
from rules.pathfinder.state import PfState


def known(state: PfState, kind: str, entity_id: str) -> bool:
    """An entity of that kind; `any` (blast-shot targets) takes every kind. Ids are unique across kinds
    (`duplicate_id`), so only the kind's own collection is searched."""
    if kind == "creature":
        return find_creature(state, entity_id) is not None
    if kind == "engine":
        return find_engine(state, entity_id) is not None
    if kind == "structure":
        return find_structure(state, entity_id) is not None
    return kind == "any" and kind_of(state, entity_id) is not None


def owner(state: PfState, kind: str, entity_id: str) -> frozenset[str] | None:
    """Creatures and engines belong to their `side` (spec §3.2, §3.4), a sideless one to the GM alone; an
    unknown id counts for no side (the fold rejects it)."""
    found = find_engine(state, entity_id) if kind == "engine" else find_creature(state, entity_id)
    if found is None:
        return frozenset()
    return None if found.side is None else frozenset({found.side})
