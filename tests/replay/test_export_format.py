"""An exported line's entry members: each of its JSON type, none left out, or the line is unusable."""

from __future__ import annotations

import json
from typing import Any

import pytest

from eventstore.records import StoredEntry
from replay.export_format import Unusable, event_line, read_line, source_of

ENTRY = StoredEntry(
    version=2,
    type="add_fortification",
    data={"type": "add_fortification", "kind": "wall", "id": "W1"},
    schema_version=1,
    actor="gm",
    idempotency_key=None,
    recorded_at="2026-12-02T00:00:00.000Z",
    dice={},
    prev_hash="a" * 64,
    hash="b" * 64,
)


def line_with(**members: Any) -> bytes:
    event = json.loads(event_line(source_of("b1"), ENTRY, None))
    event["data"].update(members)
    return json.dumps(event).encode() + b"\n"


def test_a_line_as_written_is_read_back_as_its_entry() -> None:
    assert read_line(event_line(source_of("b1"), ENTRY, None), 1, 2).entry == ENTRY


@pytest.mark.parametrize(
    "members",
    [
        {"version": True},  # a bool is no int, though Python's isinstance says it is
        {"version": 2.0},
        {"version": "2"},
        {"schema_version": None},
        {"actor": 7},
        {"data": []},
        {"dice": None},
        {"idempotency_key": 5},
        {"hash": ["b"]},
    ],
)
def test_a_member_of_another_json_type_makes_the_line_unusable(members: dict[str, Any]) -> None:
    with pytest.raises(Unusable, match=rf"data\.{next(iter(members))} is missing or mistyped"):
        read_line(line_with(**members), 1, 2)


def test_a_member_left_out_is_no_null_but_a_null_key_is_a_key() -> None:
    event = json.loads(line_with())
    del event["data"]["idempotency_key"]
    with pytest.raises(Unusable, match=r"data\.idempotency_key is missing or mistyped"):
        read_line(json.dumps(event).encode(), 1, 2)
    assert read_line(line_with(idempotency_key="k-1"), 1, 2).entry.idempotency_key == "k-1"
