"""The pathfinder records are the one declaration of their commands: the generated schemas accept each
command's example and refuse what does not fit; parsing fills derived defaults and turns sent targets into
Target records; the ids a command names and acts with are read off the same declaration."""

from __future__ import annotations

from typing import Any

import pytest
from marshmallow import ValidationError

from rules.declare import spec_of
from rules.errors import Rejected
from rules.pathfinder.commands import COMMANDS, UNCHANGED, AddCreature
from rules.pathfinder.dice_slots import DICE_SLOTS
from rules.pathfinder.state import Inside, Square, Target
from rules.references import actors, new_ids, references
from rules.registry import get_ruleset
from schemas.commands import command_schemas, load_command
from schemas.dice import Dice

AT = {"x": 0, "y": 0}
CREATURE = {"type": "add_creature", "id": "c", "size": "M", "ac": 12, "hp": 9, "position": AT}
ENGINE = {"type": "place_engine", "id": "e", "catalog_id": "ballista_light", "position": AT}
RULESET = get_ruleset("pathfinder")


def parse(body: dict[str, Any]) -> Any:
    loaded = load_command("pathfinder", body)
    return RULESET.parse(loaded.type, loaded.data)


@pytest.mark.parametrize("kind", COMMANDS)
def test_every_command_accepts_its_declared_example(kind: str) -> None:
    example = spec_of(COMMANDS[kind]).example
    assert example is not None
    assert isinstance(parse({"type": kind, **example}), COMMANDS[kind])


@pytest.mark.parametrize("kind", COMMANDS)
def test_every_command_takes_the_dice_slots_of_spec_section_4(kind: str) -> None:
    dice = command_schemas("pathfinder")[kind]._declared_fields["dice"]

    assert isinstance(dice, Dice)
    assert set(dice.slots()) == set(DICE_SLOTS)
    assert set(spec_of(COMMANDS[kind]).dice) <= set(DICE_SLOTS)


REFUSED: dict[str, tuple[dict[str, Any], str]] = {
    "string for an integer": ({**CREATURE, "ac": "12"}, "ac"),
    "null where no None is declared": ({**ENGINE, "masterwork": None}, "masterwork"),
    "an id longer than 128": ({**CREATURE, "id": "x" * 129}, "id"),
    "enhancement out of range": ({**ENGINE, "enhancement": 6}, "enhancement"),
    "negative skill ranks": ({**CREATURE, "skills": {"craft_siege_engine": {"ranks": -1}}}, "skills"),
    "repeated crew ids": (
        {"type": "assign_crew", "engine_id": "e", "creature_ids": ["a", "a"], "leader_id": "a"},
        "creature_ids",
    ),
    "an object for an id": (
        {"type": "assign_crew", "engine_id": "e", "creature_ids": [{}, {}], "leader_id": "a"},
        "creature_ids",
    ),
    "a contributor twice": (
        {
            "type": "aim",
            "engine_id": "e",
            "target": {"creature_id": "a"},
            "contributors": [{"creature_id": "a"}] * 2,
        },
        "contributors",
    ),
    "a null target member": ({"type": "ram", "engine_id": "e", "target": {"creature_id": None}}, "target"),
    "a Medium gate": (
        {"type": "add_structure", "id": "g", "kind": "gate", "material": "wood", "size": "M"},
        "size",
    ),
}


@pytest.mark.parametrize("body, field", REFUSED.values(), ids=REFUSED.keys())
def test_a_body_that_does_not_fit_is_refused_and_the_rules_would_refuse_it_too(
    body: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValidationError) as refused:
        load_command("pathfinder", body)
    assert field in refused.value.messages

    with pytest.raises(Rejected, match="invalid_field"):
        RULESET.parse(body["type"], {k: v for k, v in body.items() if k != "type"})


def test_an_unknown_field_is_a_422_and_the_rules_ignore_it() -> None:
    with pytest.raises(ValidationError) as refused:
        load_command("pathfinder", {**CREATURE, "alignment": "LG"})
    assert "alignment" in refused.value.messages

    parsed = RULESET.parse("add_creature", {**CREATURE, "alignment": "LG"})
    assert isinstance(parsed, AddCreature)  # parse is typed as any of the ruleset's commands
    assert parsed.id == "c"


TWO_OR_NONE = {
    "two things": {"creature_id": "a", "engine_id": "b"},
    "an entity and a square": {"structure_id": "g", "square": AT},
    "nothing": {},
}


@pytest.mark.parametrize("target", TWO_OR_NONE.values(), ids=TWO_OR_NONE.keys())
def test_a_target_naming_two_things_or_none_fits_the_schema_and_is_the_rules_invalid_field(
    target: dict[str, Any],
) -> None:
    with pytest.raises(Rejected, match="invalid_field"):
        parse({"type": "aim", "engine_id": "e", "target": target})


def test_a_sent_target_is_stored_as_a_target_record() -> None:
    aim = parse({"type": "aim", "engine_id": "e", "target": {"square": {"x": 2, "y": 3}}})
    ram = parse({"type": "ram", "engine_id": "r", "target": {"structure_id": "g"}})
    engine = parse({**ENGINE, "state": {"aimed_at": {"creature_id": "ogre"}}})

    assert aim.target == Target(kind="square", square=Square(x=2, y=3))
    assert ram.target == Target(kind="structure", id="g")
    assert engine.state.aimed_at == Target(kind="creature", id="ogre")


def test_a_ram_cannot_be_sent_at_a_square() -> None:
    with pytest.raises(ValidationError):
        load_command("pathfinder", {"type": "ram", "engine_id": "r", "target": {"square": AT}})


def test_omitted_defaults_copy_their_sibling_and_a_sent_null_does_too() -> None:
    assert parse(CREATURE).touch_ac == 12
    assert parse({**CREATURE, "touch_ac": None}).touch_ac == 12
    assert parse({**ENGINE, "enhancement": 2}).enchantment_price_bonus == 2
    assert parse({"type": "fire", "engine_id": "e", "line_of_sight": False}).crew_sees_landing is False
    assert parse({"type": "fire", "engine_id": "e", "crew_sees_landing": True}).crew_sees_landing is True


def test_an_omitted_inside_keeps_the_creature_where_it_is_and_null_takes_it_out() -> None:
    assert parse({"type": "move_creature", "creature_id": "c"}).inside == UNCHANGED
    assert parse({"type": "move_creature", "creature_id": "c", "inside": None}).inside is None
    moved = parse(
        {"type": "move_creature", "creature_id": "c", "inside": {"engine_id": "t", "level": "upper"}}
    )
    assert moved.inside == Inside(engine_id="t", level="upper")


def test_the_ids_a_command_names_creates_and_acts_with_come_from_its_declaration() -> None:
    repair = parse({"type": "repair", "engine_id": "e", "by": "smith", "kind": "broken"})
    load = parse({"type": "load", "engine_id": "e", "contributors": [{"creature_id": "a"}]})
    fire = parse(
        {
            "type": "fire",
            "engine_id": "e",
            "target_ids": ["x"],
            "area": {"shape": "line", "target_ids": ["y"]},
        }
    )

    assert references(repair) == [("engine", "e"), ("creature", "smith")]
    assert actors(repair) == [("creature", "smith")]  # the engine is worked on, not with
    assert actors(load) == [("engine", "e"), ("creature", "a")]
    assert sorted(references(fire)) == [("any", "x"), ("creature", "y"), ("engine", "e")]
    assert new_ids(parse(CREATURE)) == ["c"]
