"""rules.references: the ids a command names are read off its declaration at any depth (a record, a list of
records, a nullable one, a union of records, one beside a default marker), each with the name of the field
it was sent in and whether the command acts with it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.declare import wire
from rules.references import actors, named_references, new_ids, references, walk


@dataclass(frozen=True, slots=True, kw_only=True)
class Hand:
    creature_id: str = field(metadata=wire(ref="creature"))


@dataclass(frozen=True, slots=True, kw_only=True)
class AtEngine:
    kind: Literal["engine"] = "engine"
    engine_id: str = field(metadata=wire(ref="engine"))


@dataclass(frozen=True, slots=True, kw_only=True)
class AtSquare:
    kind: Literal["square"] = "square"
    x: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Work:
    """A command of every shape that can hold an id, each nested record naming one."""

    id: str = field(metadata=wire(new=True))
    by: Hand = field(metadata=wire(acts=True))  # the command acts with whoever its record names
    helpers: tuple[Hand, ...] = ()
    spare: Hand | None = None
    aim: AtEngine | AtSquare
    then: AtEngine | AtSquare | Literal["unchanged"] = "unchanged"
    relief: Hand | Literal["unchanged"] | None = "unchanged"
    count: int = 1
    target_kind: str = "structure"
    target_id: str | None = field(default=None, metadata=wire(ref_from="target_kind", acts=True))


WORK = Work(
    id="w1",
    by=Hand(creature_id="c1"),
    helpers=(Hand(creature_id="c2"), Hand(creature_id="c3")),
    spare=Hand(creature_id="c4"),
    aim=AtEngine(engine_id="e1"),
    then=AtEngine(engine_id="e2"),
    relief=Hand(creature_id="c5"),
    target_id="s1",
)


def test_the_ids_nested_records_name_are_references_with_the_field_each_was_sent_in() -> None:
    assert named_references(WORK) == [
        ("creature_id", ("creature", "c1")),
        ("creature_id", ("creature", "c2")),
        ("creature_id", ("creature", "c3")),
        ("creature_id", ("creature", "c4")),
        ("engine_id", ("engine", "e1")),
        ("engine_id", ("engine", "e2")),
        ("creature_id", ("creature", "c5")),
        ("target_id", ("structure", "s1")),  # of the kind its sibling field names
    ]
    assert references(WORK) == [ref for _name, ref in named_references(WORK)]
    assert new_ids(WORK) == ["w1"]  # the id it creates names nothing yet


def test_a_record_left_out_or_at_its_marker_names_nothing_and_neither_does_a_record_without_ids() -> None:
    bare = Work(id="w2", by=Hand(creature_id="c1"), aim=AtSquare(x=3), relief=None)
    assert references(bare) == [("creature", "c1")]


def test_the_command_acts_with_the_ids_of_a_field_that_acts_and_only_those() -> None:
    assert actors(WORK) == [("creature", "c1"), ("structure", "s1")]


def test_one_walk_gives_each_id_its_field_and_whether_the_command_acts_with_it() -> None:
    # what a command's first checks read once, for check_ids and for its actors
    walked = walk(WORK)
    assert [(name, ref) for name, ref, _ in walked] == named_references(WORK)
    assert [ref for _, ref, acting in walked if acting] == actors(WORK)
