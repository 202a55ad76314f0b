"""Creatures: defaults, proficiency, feat prerequisites, riding in galleries and towers (§3.2–3.3)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.rules.pathfinder.given import (
    PROFICIENT,
    applied,
    at,
    creature,
    engine,
    find,
    rejected,
    setup,
    skill,
)

rule = pytest.mark.rule


@pytest.mark.rule("PF-GEN-08")
def test_a_creature_with_no_proficiency_is_proficient_with_nothing(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    assert applied(table, creature("c")) == {
        "creature_id": "c",
        "proficient_with": [],
        "round": 1,
        "unused_dice": [],
    }


@pytest.mark.rule("PF-GEN-08")
def test_firearms_proficiency_covers_siege_firearms_only(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    result = applied(table, creature("gun", proficiencies=["firearms", "ram_large"]))
    assert result["proficient_with"] == [
        "cannon",
        "cannon_fiends_mouth",
        "bombard_light",
        "bombard_standard",
        "bombard_heavy",
        "ram_large",
    ]


@pytest.mark.rule("PF-GEN-08", "PF-FEAT-02")
def test_siege_engineer_gives_every_supported_engine(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    result = applied(
        table,
        creature(
            "eng",
            feats=["siege_engineer"],
            proficiencies=["catapult_light"],
            skills={"knowledge_engineering": skill(5, 5)},
        ),
    )
    assert "crb_ballista" not in result["proficient_with"]
    assert result["proficient_with"][0] == "ballista_light" and "crushing_wheel" in result["proficient_with"]


@pytest.mark.rule("PF-FEAT-01")
def test_master_siege_engineer_needs_siege_engineer(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    command = creature("x", feats=["master_siege_engineer"], skills={"knowledge_engineering": skill(10, 10)})
    assert rejected(table, command) == "feat_prerequisite_missing"


@pytest.mark.rule("PF-FEAT-01")
def test_siege_engineer_needs_five_ranks_and_a_proficiency_besides_itself(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    no_proficiency = creature(
        "a", feats=["siege_engineer"], skills={"profession_siege_engineer": skill(5, 5)}
    )
    assert rejected(table, no_proficiency) == "feat_prerequisite_missing"
    few_ranks = creature(
        "b",
        feats=["siege_engineer"],
        proficiencies=["siege_engines"],
        skills={"knowledge_engineering": skill(4, 4)},
    )
    assert rejected(table, few_ranks) == "feat_prerequisite_missing"
    applied(
        table,
        creature(
            "c",
            feats=["siege_engineer", "siege_gunner"],
            proficiencies=["ballista_heavy"],
            skills={"profession_siege_engineer": skill(5, 5)},
        ),
    )


@pytest.mark.rule("PF-FEAT-01")
def test_bonus_feats_skip_the_check_and_count_as_feats(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(
        table,
        creature(
            "a",
            bonus_feats=["siege_engineer"],
            feats=["master_siege_engineer"],
            skills={"knowledge_engineering": skill(10, 10)},
        ),
    )


@pytest.mark.rule("PF-FEAT-01")
def test_siege_commander_and_gunner_prerequisites(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(
        table,
        creature(
            "boss",
            feats=["siege_commander"],
            skills={"craft_siege_engine": skill(5, 7), "profession_siege_engineer": skill(1, 1)},
        ),
    )
    assert rejected(
        table, creature("nob", feats=["siege_commander"], skills={"craft_siege_engine": skill(5, 7)})
    ) == ("feat_prerequisite_missing")
    gunner = creature("g", feats=["siege_gunner"], skills={"profession_siege_engineer": skill(5, 5)})
    assert rejected(table, gunner) == "feat_prerequisite_missing"


@pytest.mark.rule("PF-FEAT-01")
def test_feat_checks_can_be_switched_off(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder", options={"validate_feat_prerequisites": False})
    applied(table, creature("x", feats=["master_siege_engineer"]))


@pytest.mark.rule("PF-FEAT-01")
def test_unknown_feats_are_accepted_and_ignored(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(table, creature("x", feats=["critical_focus"]))


def test_omitted_fields_take_the_spec_defaults(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(table, creature("c", ac=14))
    made = find(table.state(), "creatures", "c")
    assert (made["touch_ac"], made["speed_ft"], made["bab"], made["max_hp"], made["side"]) == (
        14,
        30,
        0,
        10,
        None,
    )
    assert made["skills"]["disable_device"] == {"ranks": 0, "modifier": 0}


@pytest.mark.rule("PF-ASSAULT-10")
def test_a_siege_tower_upper_storey_holds_twenty_when_huge(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(table, engine("st", "siege_tower_huge"))
    for n in range(20):
        applied(table, creature(f"c{n}", inside={"engine_id": "st", "level": "upper"}))
    assert rejected(table, creature("c20", inside={"engine_id": "st", "level": "upper"})) == "tower_full"
    applied(table, creature("low", inside={"engine_id": "st", "level": "lower"}))


@pytest.mark.rule("PF-ASSAULT-10", "PF-DIRECT-04")
def test_inside_must_name_a_gallery_or_a_tower_with_a_level(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(table, engine("st", "siege_tower_large"))
    applied(table, engine("lb", "ballista_light"))
    applied(table, engine("gal", "gallery_large"))
    assert rejected(table, creature("a", inside={"engine_id": "lb"})) == "invalid_field"
    assert rejected(table, creature("b", inside={"engine_id": "st"})) == "invalid_field"
    assert rejected(table, creature("c", inside={"engine_id": "nowhere"})) == "unknown_entity"
    applied(table, creature("d", inside={"engine_id": "gal", "level": "upper"}))
    assert find(table.state(), "creatures", "d")["inside"] == {"engine_id": "gal", "level": None}


def test_move_creature_changes_position_and_inside_only_when_given(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(table, engine("gal", "gallery_large"))
    applied(table, creature("c", inside={"engine_id": "gal"}))
    moved = applied(table, {"type": "move_creature", "creature_id": "c", "position": {"x": 3, "y": 4}})
    assert moved["position"] == {"x": 3, "y": 4} and moved["inside"] == {"engine_id": "gal", "level": None}
    left = applied(table, {"type": "move_creature", "creature_id": "c", "inside": None})
    assert left["inside"] is None and left["position"] == {"x": 3, "y": 4}


@pytest.mark.rule("PF-ASSAULT-10")
def test_moving_within_a_full_storey_is_not_counted_twice(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(table, engine("st", "siege_tower_large"))
    for n in range(5):
        applied(table, creature(f"c{n}", inside={"engine_id": "st", "level": "upper"}))
    applied(
        table, {"type": "move_creature", "creature_id": "c0", "inside": {"engine_id": "st", "level": "upper"}}
    )
    applied(table, creature("x"))
    command = {"type": "move_creature", "creature_id": "x", "inside": {"engine_id": "st", "level": "upper"}}
    assert rejected(table, command) == "tower_full"


@rule("PF-ASSAULT-10")
@pytest.mark.parametrize(
    ("catalog_id", "capacity"), [("siege_tower_large", 5), ("siege_tower_gargantuan", 50)]
)
def test_the_upper_storey_holds_a_fixed_number(
    rules_table: TableFactory, catalog_id: str, capacity: int
) -> None:
    t = rules_table("pathfinder")
    applied(t, engine("st", catalog_id))
    setup(t, *(creature(f"u{n}", inside={"engine_id": "st", "level": "upper"}) for n in range(capacity)))
    assert rejected(t, creature("late", inside={"engine_id": "st", "level": "upper"})) == "tower_full"
    assert (
        applied(t, creature("below", inside={"engine_id": "st", "level": "lower"}))["creature_id"] == "below"
    )


def test_every_field_given_is_the_creature_s_own(rules_table: TableFactory) -> None:
    """§3.2: each field as sent; `max_hp` is the hp it joins with; actions and crew start fresh."""
    table = rules_table("pathfinder")
    sent = creature(
        "c",
        size="S",
        ac=15,
        touch_ac=12,
        hp=7,
        speed_ft=20,
        bab=3,
        str_mod=1,
        dex_mod=2,
        int_mod=-1,
        saves={"fort": 4, "ref": 5, "will": 6},
        skills={"disable_device": skill(2, 7)},
        feats=["critical_focus"],
        bonus_feats=["field_repair"],
        proficiencies=["catapult_light"],
        features=["gun_training"],
        x=2,
        y=3,
        side="red",
    )
    applied(table, sent)
    untrained = skill(0, 0)
    assert find(table.state(), "creatures", "c") == {
        "id": "c",
        "size": "S",
        "ac": 15,
        "touch_ac": 12,
        "hp": 7,
        "max_hp": 7,
        "speed_ft": 20,
        "bab": 3,
        "str_mod": 1,
        "dex_mod": 2,
        "int_mod": -1,
        "saves": {"fort": 4, "ref": 5, "will": 6},
        "skills": {
            "craft_siege_engine": untrained,
            "disable_device": skill(2, 7),
            "knowledge_engineering": untrained,
            "profession_siege_engineer": untrained,
        },
        "feats": ["critical_focus"],
        "bonus_feats": ["field_repair"],
        "proficiencies": ["catapult_light"],
        "features": ["gun_training"],
        "position": {"x": 2, "y": 3},
        "inside": None,
        "side": "red",
        "crewing": None,
        "actions": {"standard": True, "move": True},
        "busy_until_round": None,
        "conditions": [],
    }


@pytest.mark.rule("PF-GEN-10")
@pytest.mark.parametrize(("hp", "conditions"), [(1, []), (0, ["down"]), (-3, ["down"])])
def test_a_creature_joining_at_or_below_0_hp_is_down(
    rules_table: TableFactory, hp: int, conditions: list[str]
) -> None:
    table = rules_table("pathfinder")
    applied(table, creature("c", hp=hp))
    made = find(table.state(), "creatures", "c")
    assert (made["hp"], made["max_hp"], made["conditions"]) == (hp, hp, conditions)


def test_a_move_is_kept_in_the_state(rules_table: TableFactory) -> None:
    """§3.3: the state after the move holds the values the outcome reports."""
    table = rules_table("pathfinder")
    setup(table, engine("gal", "gallery_large"), engine("st", "siege_tower_large"), creature("c", x=1, y=1))
    applied(
        table, {"type": "move_creature", "creature_id": "c", "inside": {"engine_id": "gal", "level": "lower"}}
    )
    made = find(table.state(), "creatures", "c")
    assert (made["position"], made["inside"]) == ({"x": 1, "y": 1}, {"engine_id": "gal", "level": None})
    command = {"type": "move_creature", "creature_id": "c", "position": at(5, 6)}
    command["inside"] = {"engine_id": "st", "level": "upper"}
    assert applied(table, command) == {
        "creature_id": "c",
        "position": {"x": 5, "y": 6},
        "inside": {"engine_id": "st", "level": "upper"},
        "round": 1,
        "unused_dice": [],
    }
    made = find(table.state(), "creatures", "c")
    assert (made["position"], made["inside"]) == ({"x": 5, "y": 6}, {"engine_id": "st", "level": "upper"})
    applied(table, {"type": "move_creature", "creature_id": "c", "inside": None})
    assert find(table.state(), "creatures", "c")["inside"] is None


@pytest.mark.rule("PF-ASSAULT-10", "PF-DIRECT-04")
def test_a_level_does_not_make_another_engine_a_place_to_ride(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    setup(table, engine("lb", "ballista_light"), creature("c"))
    for level in ("upper", "lower"):
        assert rejected(table, creature("a", inside={"engine_id": "lb", "level": level})) == "invalid_field"
        command = {"type": "move_creature", "creature_id": "c", "inside": {"engine_id": "lb", "level": level}}
        assert rejected(table, command) == "invalid_field"


@pytest.mark.rule("PF-ASSAULT-10")
def test_only_those_on_the_upper_storey_fill_it(rules_table: TableFactory) -> None:
    """A large tower's upper storey holds 5: those below, outside or in another tower take no room there."""
    table = rules_table("pathfinder")
    setup(table, engine("st", "siege_tower_large"), engine("st2", "siege_tower_large", x=5))
    setup(table, *(creature(f"low{n}", inside={"engine_id": "st", "level": "lower"}) for n in range(3)))
    setup(table, *(creature(f"out{n}") for n in range(3)))
    setup(table, *(creature(f"far{n}", inside={"engine_id": "st2", "level": "upper"}) for n in range(5)))
    upper = {"engine_id": "st", "level": "upper"}
    setup(table, *(creature(f"up{n}", inside=upper) for n in range(4)))
    applied(table, {"type": "move_creature", "creature_id": "low0", "inside": upper})
    assert rejected(table, {"type": "move_creature", "creature_id": "low1", "inside": upper}) == "tower_full"
    assert rejected(table, creature("late", inside=upper)) == "tower_full"


@pytest.mark.rule("PF-FEAT-01")
@pytest.mark.parametrize(
    ("skills", "met"),
    [
        ({"craft_siege_engine": skill(5, 5), "knowledge_engineering": skill(5, 5)}, True),
        ({"craft_siege_engine": skill(5, 5), "profession_siege_engineer": skill(1, 1)}, True),
        ({"craft_siege_engine": skill(5, 5), "knowledge_engineering": skill(4, 9)}, False),
        ({"craft_siege_engine": skill(5, 5), "knowledge_engineering": skill(0, 9)}, False),
        ({"craft_siege_engine": skill(4, 9), "knowledge_engineering": skill(5, 5)}, False),
        ({"craft_siege_engine": skill(4, 9), "profession_siege_engineer": skill(9, 9)}, False),
        ({"knowledge_engineering": skill(10, 10), "profession_siege_engineer": skill(10, 10)}, False),
    ],
)
def test_siege_commander_needs_five_craft_ranks_and_five_knowledge_or_one_profession(
    rules_table: TableFactory, skills: dict[str, dict[str, int]], met: bool
) -> None:
    """Ranks count, not modifiers: 5 ranks of Craft (siege engine) and 5 of Knowledge (engineering) or 1 of
    Profession (siege engineer)."""
    table = rules_table("pathfinder")
    outcome = table.send(creature("boss", feats=["siege_commander"], skills=skills))
    assert (outcome["status"], outcome["reason"]) == (
        ("applied", None) if met else ("rejected", "feat_prerequisite_missing")
    )


@pytest.mark.rule("PF-FEAT-01")
def test_siege_gunner_and_master_siege_engineer_need_their_ranks_besides_siege_engineer(
    rules_table: TableFactory,
) -> None:
    table = rules_table("pathfinder")
    engineer = {"bonus_feats": ["siege_engineer"], **PROFICIENT}
    gunner = creature(
        "g", feats=["siege_gunner"], skills={"profession_siege_engineer": skill(4, 9)}, **engineer
    )
    assert rejected(table, gunner) == "feat_prerequisite_missing"
    gunner = creature(
        "g", feats=["siege_gunner"], skills={"knowledge_engineering": skill(10, 10)}, **engineer
    )
    assert rejected(table, gunner) == "feat_prerequisite_missing"
    master = creature(
        "m", feats=["master_siege_engineer"], skills={"knowledge_engineering": skill(9, 20)}, **engineer
    )
    assert rejected(table, master) == "feat_prerequisite_missing"
    master = creature(
        "m", feats=["master_siege_engineer"], skills={"profession_siege_engineer": skill(10, 10)}, **engineer
    )
    assert rejected(table, master) == "feat_prerequisite_missing"
    setup(
        table,
        creature("g", feats=["siege_gunner"], skills={"profession_siege_engineer": skill(5, 5)}, **engineer),
        creature(
            "m", feats=["master_siege_engineer"], skills={"knowledge_engineering": skill(10, 10)}, **engineer
        ),
    )


@pytest.mark.rule("PF-FEAT-01")
def test_siege_engineer_needs_five_ranks_in_either_skill(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    proficient: dict[str, Any] = {"proficiencies": ["trebuchet_light"]}
    setup(
        table,
        creature("k", feats=["siege_engineer"], skills={"knowledge_engineering": skill(5, 5)}, **proficient),
        creature(
            "p", feats=["siege_engineer"], skills={"profession_siege_engineer": skill(5, 0)}, **proficient
        ),
    )
    few = {"knowledge_engineering": skill(4, 20), "profession_siege_engineer": skill(4, 20)}
    assert rejected(table, creature("f", feats=["siege_engineer"], skills=few, **proficient)) == (
        "feat_prerequisite_missing"
    )


@pytest.mark.rule("PF-FEAT-01", "PF-FEAT-06")
def test_field_repair_has_no_prerequisite_to_check(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    assert applied(table, creature("r", feats=["field_repair"]))["creature_id"] == "r"
