"""What a command's declaration holds (rules.declare.command) and what a ruleset derives once it is built
(Ruleset.__post_init__): both run at import, so these tests make their own and read them back."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rules.codec import encode
from rules.declare import CommandSpec, command, command_table, spec_of
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
