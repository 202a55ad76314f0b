"""Comparing a fresh fold with the outcomes the store holds, byte for byte: the one check behind the audit and
the replay verifier (a difference is rules drift or a rewritten outcome)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal, TypeVar

from eventstore.canonical import canonical_json
from eventstore.paging import iter_outcomes
from eventstore.roles import Log

T = TypeVar("T")
# `pending`: not projected yet; `missing`: the stored outcomes skip this version; `outcome`: other bytes
Match = Literal["same", "pending", "missing", "outcome"]


def compare_outcomes(
    store: Log, battle_id: str, upto: int, folded: Iterable[tuple[T, Mapping[str, Any]]]
) -> Iterator[tuple[T, Mapping[str, Any], Match]]:
    """Each fresh (state, outcome) of versions 1..upto, in order, with how the stored outcome of its
    version matches it; both sides are streamed."""
    stored = iter_outcomes(store, battle_id, upto)
    for state, outcome in folded:
        yield state, outcome, _match(outcome, next(stored, None))


def _match(outcome: Mapping[str, Any], found: tuple[int, str] | None) -> Match:
    if found is None:
        return "pending"
    version, text = found
    if version != outcome["version"]:
        return "missing"
    return "same" if text == canonical_json(outcome) else "outcome"
