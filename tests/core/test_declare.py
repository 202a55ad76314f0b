"""What a command's declaration holds (rules.declare.command) and what a ruleset derives once it is built
(Ruleset.__post_init__): both run at import, so these tests make their own as they run and read them back."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Literal

import pytest

from rules.codec import encode
from rules.declare import (
    Choice,
    CommandRecord,
    CommandSpec,
    FieldPlan,
    Nullable,
    Rec,
    Scalar,
    Sentinel,
    Seq,
    Tagged,
    Wire,
    command,
    command_table,
    described,
    facts,
    record_doc,
    shape_of,
    spec_of,
    stated_default,
)
from rules.registry import get_ruleset
from tests.core.tagged import Far, Near


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    done: bool


def declared() -> tuple[type, type]:
    """Two commands declared as a test runs, not at import (where a mutant of `command` goes unseen)."""

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

    return SignalRetreat, Wait


SignalRetreat, Wait = declared()  # for the tests of what is derived from a declaration (test_jsonschema)


def test_a_command_declares_every_fact_it_was_given_and_the_defaults_of_the_others() -> None:
    signal_retreat, wait = declared()
    assert spec_of(signal_retreat) == CommandSpec(
        name="signal_retreat",
        doc="Sounds the retreat.",
        phases=("movement", "assault"),
        dice=("attacker",),
        referee=True,
        example={"stand_id": "a1"},
        result=Result,
    )
    assert spec_of(wait) == CommandSpec(name="wait", doc="Does nothing.")
    assert (spec_of(wait).phases, spec_of(wait).dice, spec_of(wait).referee) == (None, (), False)
    assert (spec_of(wait).example, spec_of(wait).result) == (None, None)


def test_a_command_table_names_each_record_by_its_wire_name_in_the_order_given() -> None:
    signal_retreat, wait = declared()
    assert list(command_table(wait, signal_retreat).items()) == [
        ("wait", wait),
        ("signal_retreat", signal_retreat),
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


@dataclass(frozen=True, slots=True, kw_only=True)
class Undocumented:
    x: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Documented:
    """Moves a stand
    one square,   at most."""

    x: int


def test_a_records_own_docstring_is_its_doc_on_one_line_and_a_made_up_one_is_none() -> None:
    assert record_doc(Documented) == "Moves a stand one square, at most."
    assert Undocumented.__doc__ and Undocumented.__doc__.startswith("Undocumented(")  # made up by dataclasses
    assert record_doc(Undocumented) is None


class Blank:
    """"""


def test_an_empty_or_missing_docstring_is_no_doc() -> None:
    assert record_doc(Blank) is None
    assert record_doc(type("Bare", (), {})) is None


INT = Scalar("int")


def a_field(shape: Any = INT, default: Any = None, **facts: Any) -> FieldPlan:
    return FieldPlan("f", shape, Wire(**facts), required=False, default=default)


def test_a_fields_description_is_its_doc_then_what_no_json_schema_can_say() -> None:
    assert described(a_field()) is None
    assert described(a_field(doc="rams only")) == "rams only"
    assert described(a_field(unique_by="x")) == "each `x` at most once"
    assert described(a_field(default_from="ac")) == "default: ac"
    assert (
        described(a_field(doc="the path", unique_by="x", default_from="PF-ASSEMBLE-05"))
        == "the path; each `x` at most once; default: PF-ASSEMBLE-05"
    )


def test_a_default_is_stated_unless_a_marker_copied_derived_or_standing_for_omission() -> None:
    assert stated_default(a_field(default=3))
    assert stated_default(a_field(Nullable(Scalar("int"))))  # null is a real default where null is sent
    assert not stated_default(a_field(Nullable(Scalar("int")), omit_only=True))  # None only means omitted
    assert not stated_default(a_field(Scalar("int")))  # None where the type has no null: no default to show
    assert not stated_default(a_field(default=3, default_from="ac"))
    assert not stated_default(a_field(Nullable(Scalar("int")), default_from="ac"))
    assert not stated_default(a_field(Sentinel(Rec(Near)), default="unchanged"))
    assert not stated_default(a_field(Nullable(Sentinel(Rec(Near))), default="unchanged"))


def test_a_command_record_has_no_field_error_of_its_own() -> None:
    assert CommandRecord().invalid() is False


def test_a_field_with_no_metadata_has_no_facts() -> None:
    (plain,) = dataclasses.fields(Undocumented)
    assert facts(plain) == Wire()


def test_the_choices_of_a_field_narrow_the_values_or_variants_its_shape_allows() -> None:
    assert Choice(("a", "b")).allowed(Wire()) == ("a", "b")
    assert Choice(("a", "b")).allowed(Wire(choices=("b",))) == ("b",)
    tagged = Tagged("kind", {"near": Near, "far": Far})
    assert tagged.allowed(Wire()) == {"near": Near, "far": Far}
    assert tagged.allowed(Wire(choices=("far",))) == {"far": Far}
