"""What a command's declaration holds (rules.declare.command) and what a ruleset derives once it is built
(Ruleset.__post_init__): both run at import, so these tests make their own and read them back."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Literal

import pytest

from rules.codec import encode
from rules.declare import (
    Choice,
    CommandSpec,
    Nullable,
    Rec,
    Scalar,
    Sentinel,
    Seq,
    Tagged,
    command,
    command_table,
    shape_of,
    spec_of,
)
from rules.registry import get_ruleset


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    done: bool


@command(
    "signal_retreat",
    doc="Sounds the retreat.",
    phases=("movement", "assault"),
    dice=("attacker",),
    referee=True,
    example={"stand_id": "a1"},
    result=Result,
)
@dataclass(frozen=True, slots=True, kw_only=True)
class SignalRetreat:
    stand_id: str


@command("wait", doc="Does nothing.")
@dataclass(frozen=True, slots=True, kw_only=True)
class Wait:
    pass


def test_a_command_declares_every_fact_it_was_given_and_the_defaults_of_the_others() -> None:
    assert spec_of(SignalRetreat) == CommandSpec(
        name="signal_retreat",
        doc="Sounds the retreat.",
        phases=("movement", "assault"),
        dice=("attacker",),
        referee=True,
        example={"stand_id": "a1"},
        result=Result,
    )
    assert spec_of(Wait) == CommandSpec(name="wait", doc="Does nothing.")
    assert (spec_of(Wait).phases, spec_of(Wait).dice, spec_of(Wait).referee) == (None, (), False)
    assert (spec_of(Wait).example, spec_of(Wait).result) == (None, None)


def test_a_command_table_names_each_record_by_its_wire_name_in_the_order_given() -> None:
    assert list(command_table(Wait, SignalRetreat).items()) == [
        ("wait", Wait),
        ("signal_retreat", SignalRetreat),
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseRules:
    """House rules of a ruleset built here: two options and their defaults."""

    tie_rule: str = "attacker_wins"
    capacity: int = 3


def test_a_ruleset_derives_its_default_options_from_its_options_record_once_built() -> None:
    epic = get_ruleset("epic")
    house = dataclasses.replace(epic, options=HouseRules)

    assert house.default_options == {"tie_rule": "attacker_wins", "capacity": 3} == encode(HouseRules())
    assert epic.default_options == encode(epic.options())
    assert house.rules_versions == (*epic.earlier_versions, epic.rules_version)


@dataclass(frozen=True, slots=True, kw_only=True)
class Near:
    kind: Literal["near"] = "near"
    x: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Far:
    kind: Literal["far"] = "far"


def test_each_field_type_has_the_wire_shape_its_values_take() -> None:
    assert (
        shape_of(int) == Scalar("int") and shape_of(bool) == Scalar("bool") and shape_of(str) == Scalar("str")
    )
    assert shape_of(int | None) == Nullable(Scalar("int"))
    assert shape_of(Literal["a", "b"]) == Choice(("a", "b"))
    assert shape_of(Literal["a"] | Literal["b"]) == Choice(("a", "b"))  # markers alone are the values
    assert shape_of(Literal["a", "b"] | None) == Nullable(Choice(("a", "b")))
    assert shape_of(tuple[str, ...]) == Seq(Scalar("str"))
    assert shape_of(Near) == Rec(Near)
    assert shape_of(Near | Far) == Tagged("kind", {"near": Near, "far": Far})
    assert shape_of(Near | Literal["unchanged"]) == Sentinel(Rec(Near))  # a default marker beside a record
    assert shape_of(Near | Far | Literal["unchanged"] | None) == Nullable(
        Sentinel(Tagged("kind", {"near": Near, "far": Far}))
    )


@pytest.mark.parametrize(
    ("tp", "why"),
    [
        (Literal[1, 2], "only string literals have a wire shape, not "),
        (str | Literal["unchanged"], "a default marker needs a record beside it, not "),
        (float, "no wire shape for "),
        (dict[str, int], "no wire shape for "),
    ],
    ids=repr,
)
def test_a_type_no_wire_value_can_take_is_refused_when_declared(tp: Any, why: str) -> None:
    with pytest.raises(TypeError, match="^" + re.escape(why + repr(tp)) + "$"):
        shape_of(tp)
