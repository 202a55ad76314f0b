"""Stored event names are declared with each event, unique per ruleset, and independent of class names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

import pytest

from rules.epic.events import Event as EpicEvent
from rules.events import event, event_name
from rules.pathfinder.events import Event as PathfinderEvent


@pytest.mark.parametrize("union", [EpicEvent, PathfinderEvent], ids=["epic", "pathfinder"])
def test_every_event_declares_a_unique_stored_name(union: object) -> None:
    records = get_args(union)
    names = [getattr(record, "__event__", None) for record in records]
    assert None not in names, [r.__name__ for r, n in zip(records, names, strict=True) if n is None]
    assert len(set(names)) == len(names)


def test_the_stored_name_survives_a_class_rename() -> None:
    @event("GateOperated")
    @dataclass(frozen=True)
    class RenamedGateEvent:
        gate_id: str

    assert event_name(RenamedGateEvent(gate_id="G1")) == "GateOperated"
