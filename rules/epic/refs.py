"""What the kinds of id a command names mean on the epic board (spec §2 `unknown_entity`, and side tokens)."""

from __future__ import annotations

from rules.epic.board import exists, find_section, find_stand
from rules.epic.state import EpicState

GATE_OWNER = "defender"  # the fortress owner works its gates


def known(state: EpicState, kind: str, entity_id: str) -> bool:
    """Gate, transport and spotter ids are judged later (`not_a_gate`, `not_a_transport`,
    `spotter_invalid`), so any existing id passes here."""
    if kind == "stand":
        return find_stand(state, entity_id) is not None
    if kind == "section":
        return find_section(state, entity_id) is not None
    return exists(state, entity_id)


def owner(state: EpicState, kind: str, entity_id: str) -> frozenset[str]:
    """Stands belong to their side, gates to the defender; an unknown id to no side (the fold rejects it)."""
    if kind == "gate":
        return frozenset({GATE_OWNER})
    found = find_stand(state, entity_id) if kind == "stand" else None
    return frozenset() if found is None else frozenset({found.side})
