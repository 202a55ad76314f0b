"""Direct fire (PF-DIRECT-01..05, PF-GEN-07/08/12, PF-MAGIC-05): the attack roll, cover and a hit's damage."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.harness import RulesTable
from tests.rules.pathfinder.given import (
    KNOWS,
    PROFICIENT,
    aimed_engine,
    applied,
    ballista,
    creature,
    crew,
    effect,
    engine,
    fire,
    labels,
    rejected,
    setup,
    shoot,
    skill,
    who,
)


@pytest.mark.rule("PF-DIRECT-01", "PF-DIRECT-03", "PF-DIRECT-05", "PF-GEN-10")
def test_a_hit_deals_the_engine_dice_to_the_target_only(rules_table: TableFactory) -> None:
    t = ballista(rules_table, {"bab": 3, "dex_mod": 2, **PROFICIENT, **KNOWS})
    shot = shoot(t, {"attack": [5], "damage": [1, 2, 3]})
    assert labels(shot["roll"]) == {"bab": 3, "dex": 2}
    assert (shot["roll"]["total"], shot["roll"]["target_number"], shot["roll"]["success"]) == (10, 10, True)
    assert shot["damage"] == {"dice": [1, 2, 3], "static": 0, "total": 6, "base": 6}
    assert [(e["entity_id"], e["zone"], e["distance_ft"], e["hp_after"]) for e in shot["effects"]] == [
        ("dummy", "target", 20, 24),
    ]
    assert (shot["landing"], shot["per_target"], shot["collapse"], shot["square_conditions"]) == (
        None,
        None,
        [],
        [],
    )


@pytest.mark.rule("PF-DIRECT-03")
def test_a_miss_has_no_further_effect(rules_table: TableFactory) -> None:
    outcome = ballista(rules_table).send(fire("lb", {"attack": [8]}, target=who("dummy")))
    assert outcome["result"]["hit"] is False and outcome["result"]["effects"] == []
    assert [r["slot"] for r in outcome["rolls"]] == ["attack"]


@pytest.mark.rule("PF-GEN-07")
def test_natural_twenty_always_hits_and_natural_one_always_misses(rules_table: TableFactory) -> None:
    t = ballista(rules_table, target=creature("dummy", ac=40, hp=30, y=4))
    assert shoot(t, {"attack": [20], "confirm": [3], "damage": [1, 1, 1]})["hit"] is True
    low = ballista(
        rules_table,
        {
            "bab": 20,
            **PROFICIENT,
            **KNOWS,
            "feats": ["siege_engineer"],
            "skills": {"knowledge_engineering": skill(5, 5)},
        },
    )
    assert shoot(low, {"attack": [1]})["hit"] is False


@pytest.mark.rule("PF-GEN-08")
def test_a_nonproficient_leader_takes_minus_four(rules_table: TableFactory) -> None:
    shot = shoot(ballista(rules_table, KNOWS), {"attack": [10]})
    assert labels(shot["roll"]) == {"nonproficient": -4}
    firearms = shoot(ballista(rules_table, {"proficiencies": ["firearms"], **KNOWS}), {"attack": [10]})
    assert labels(firearms["roll"]) == {"nonproficient": -4}
    own = shoot(ballista(rules_table, {"proficiencies": ["ballista_light"], **KNOWS}), {"attack": [10]})
    assert labels(own["roll"]) == {}


@pytest.mark.rule("PF-GEN-08", "PF-FEAT-02")
def test_a_siege_engineer_with_no_proficiency_listed_takes_no_penalty(rules_table: TableFactory) -> None:
    """The feat alone makes the leader proficient with every engine (a bonus feat, so no prerequisite)."""
    engineer = {"bonus_feats": ["siege_engineer"], **KNOWS}
    shot = shoot(ballista(rules_table, engineer), {"attack": [10]})
    assert (labels(shot["roll"]), shot["roll"]["total"]) == ({}, 10)


@pytest.mark.rule("PF-DIRECT-02")
def test_the_targeting_platform_only_counts_under_its_option(rules_table: TableFactory) -> None:
    platform = {"targeting_platform": True}
    plain = shoot(ballista(rules_table, PROFICIENT, fields=platform), {"attack": [10]})
    assert labels(plain["roll"]) == {"siege_size_penalty": -2}
    opted = shoot(ballista(rules_table, PROFICIENT, options=platform, fields=platform), {"attack": [10]})
    assert labels(opted["roll"]) == {}


@pytest.mark.rule("PF-GEN-12")
def test_wind_modifies_the_attack_and_a_tornado_stops_all_fire(rules_table: TableFactory) -> None:
    t = ballista(rules_table)
    applied(t, {"type": "set_wind", "level": "hurricane"})
    assert labels(shoot(t, {"attack": [10]})["roll"]) == {"wind": -8}
    calm = ballista(rules_table)
    applied(calm, {"type": "set_wind", "level": "tornado"})
    assert rejected(calm, fire("lb", target=who("dummy"))) == "cannot_fire_in_tornado"


@pytest.mark.rule("PF-MAGIC-05", "PF-MAGIC-03")
def test_a_siege_mage_empowers_attack_and_damage(rules_table: TableFactory) -> None:
    mage = {**PROFICIENT, **KNOWS, "features": ["siege_mage"]}
    t = ballista(rules_table, mage, fields={"masterwork": True, "enhancement": 1})
    shot = shoot(t, {"attack": [7], "damage": [1, 1, 1]}, empower_spell_level=2)
    assert labels(shot["roll"]) == {"enhancement": 1, "empower": 2}
    assert (shot["damage"]["static"], shot["damage"]["total"]) == (7, 10)
    assert (
        rejected(ballista(rules_table), fire("lb", target=who("dummy"), empower_spell_level=1))
        == "not_a_siege_mage"
    )


@pytest.mark.rule("PF-DEF-05", "PF-GEN-10")
def test_a_broken_engine_takes_minus_two_and_damage_never_drops_below_one(rules_table: TableFactory) -> None:
    shot = shoot(ballista(rules_table, broken=True), {"attack": [12], "damage": [1, 1, 1]})
    assert labels(shot["roll"]) == {"broken": -2}
    assert (shot["damage"]["static"], shot["damage"]["total"]) == (-2, 1)


@pytest.mark.rule("PF-DIRECT-04")
def test_cover_inside_a_siege_tower(rules_table: TableFactory) -> None:
    tower = engine("st", "siege_tower_large", y=4)
    riders = (
        creature("up", y=4, inside={"engine_id": "st", "level": "upper"}),
        creature("down", y=4, inside={"engine_id": "st", "level": "lower"}),
    )
    t = ballista(rules_table, target=tower)
    setup(t, *riders)
    assert rejected(t, fire("lb", target=who("down"))) == "target_has_total_cover"
    assert shoot(t, {"attack": [10]}, target=who("up"))["roll"]["target_number"] == 18


@pytest.mark.rule("PF-DIRECT-04", "PF-ASSAULT-10")
def test_a_destroyed_siege_tower_or_gallery_shelters_nobody(rules_table: TableFactory) -> None:
    """A destroyed tower has collapsed (PF-ASSAULT-10: `cave_in`): neither storey gives cover any more, so
    the lower one is no longer out of reach (docs/rulings.md, PF-DIRECT-04); a destroyed gallery alike."""
    riders = {
        "up": ("siege_tower_large", {"engine_id": "host", "level": "upper"}),
        "down": ("siege_tower_large", {"engine_id": "host", "level": "lower"}),
        "dug": ("gallery_large", {"engine_id": "host"}),
    }
    for rider, (kind, inside) in riders.items():
        t = ballista(rules_table, target=engine("host", kind, y=4, state={"hp": 0}))
        setup(t, creature(rider, y=4, inside=inside))
        assert shoot(t, {"attack": [10]}, target=who(rider))["roll"]["target_number"] == 10, rider


@pytest.mark.rule("PF-DIRECT-04")
def test_a_creature_larger_than_the_gallery_has_no_cover(rules_table: TableFactory) -> None:
    t = ballista(rules_table, target=engine("gal", "gallery_large", y=4))
    setup(t, creature("huge", size="H", y=4, inside={"engine_id": "gal"}))
    assert shoot(t, {"attack": [10]}, target=who("huge"))["roll"]["target_number"] == 10


@pytest.mark.rule("PF-DIRECT-05", "PF-DEF-06", "PF-GEN-10")
def test_engines_subtract_hardness_and_are_destroyed_at_zero(rules_table: TableFactory) -> None:
    t = ballista(rules_table, target=engine("cat", "catapult_light", y=4, state={"hp": 8}))
    setup(t, creature("loader", x=5), crew("cat", "loader"))
    shot = shoot(t, {"attack": [10], "damage": [8, 8, 8]}, target={"engine_id": "cat"})
    hit = effect(shot, "cat")
    assert (hit["hardness_applied"], hit["hp_loss"], hit["hp_after"], hit["conditions_added"]) == (
        5,
        19,
        -11,
        ["destroyed"],
    )
    applied(t, crew("lb", "loader"))  # the wreck released its crew


@pytest.mark.rule("PF-DEF-05", "PF-DEF-06", "PF-GEN-10")
@pytest.mark.parametrize(
    ("hp", "damage", "hp_after", "added"),
    [
        (30, [1, 1, 1], 30, []),  # 3 against hardness 5: no loss, never a negative one
        (30, [1, 1, 3], 30, []),  # 5: exactly the hardness, still nothing
        (31, [3, 3, 4], 26, []),  # 10 - 5: 26 of 50 is above half
        (30, [3, 3, 4], 25, ["broken"]),  # exactly half of 50: broken
        (11, [5, 5, 5], 1, []),  # broken already (11 of 50, PF-DEF-05); 1 hp left: not destroyed
        (10, [5, 5, 5], 0, ["destroyed"]),  # exactly 0: destroyed
    ],
)
def test_an_engine_is_broken_at_half_its_hp_and_destroyed_at_zero_after_its_hardness(
    rules_table: TableFactory, hp: int, damage: list[int], hp_after: int, added: list[str]
) -> None:
    """A light catapult: 50 hp, hardness 5 (the catalog); the light ballista's 3d8 as supplied."""
    t = ballista(rules_table, target=engine("cat", "catapult_light", y=4, state={"hp": hp}))
    setup(t, creature("loader", x=5), crew("cat", "loader"))
    shot = shoot(t, {"attack": [10], "damage": damage}, target={"engine_id": "cat"})
    hit = effect(shot, "cat")
    assert (hit["hp_before"], hit["hp_after"], hit["hp_loss"]) == (hp, hp_after, hp - hp_after)
    assert (hit["conditions_added"], hit["cave_in"]) == (added, False)  # only a siege tower caves in
    assert isinstance(t, RulesTable)  # only the in-process table keeps every outcome
    changes = [
        c for c in t.outcomes[-1]["changes"] if c.get("entity_id") == "cat" or c.get("engine_id") == "cat"
    ]
    destroyed = [{"event": "EngineDestroyed", "engine_id": "cat"}] if "destroyed" in added else []
    hp_change = {
        "event": "HitPointsChanged",
        "entity_kind": "engine",
        "entity_id": "cat",
        "hp_after": hp_after,
    }
    assert changes == [hp_change, *destroyed]  # `broken` follows from the hp: no change of its own


@pytest.mark.rule("PF-AMMO-08")
@pytest.mark.parametrize(("natural", "total", "conditions"), [(16, 20, []), (15, 19, ["prone"])])
def test_a_chain_shot_knocks_prone_unless_the_fortitude_save_reaches_twenty(
    rules_table: TableFactory, natural: int, total: int, conditions: list[str]
) -> None:
    """The hit's full damage either way; Fortitude DC 20: 16 + 4 = 20 stands, 15 + 4 = 19 falls prone."""
    t = rules_table("pathfinder")
    setup(
        t,
        creature("cg", bab=4, proficiencies=["firearms"]),
        creature("c2", x=1),
        creature("ogre", ac=15, hp=50, saves={"fort": 4}, y=10),
        aimed_engine("cn", "cannon", who("ogre"), ammunition="chain_shot"),
        crew("cn", "cg", "c2"),
    )
    shot = applied(t, fire("cn", {"attack": [12], "damage": [2] * 6, "save": [natural]}))
    ogre = effect(shot, "ogre")
    assert (ogre["zone"], ogre["damage_after_save"], ogre["hp_after"]) == ("target", 12, 38)
    assert (ogre["save"]["dc"], ogre["save"]["total"], ogre["conditions_added"]) == (20, total, conditions)


@pytest.mark.rule("PF-AMMO-09")
def test_an_entangling_bolt_hits_its_target_for_no_damage(rules_table: TableFactory) -> None:
    shot = shoot(ballista(rules_table, ammunition="entangling_bolt"), {"attack": [15]})
    assert [
        (e["entity_id"], e["zone"], e["damage_in"], e["hp_loss"], e["conditions_added"])
        for e in shot["effects"]
    ] == [("dummy", "target", 0, 0, ["entangled"])]


@pytest.mark.rule("PF-MISHAP-02", "PF-DEF-05")
def test_a_mishap_on_a_broken_ballista_breaks_nothing_more(rules_table: TableFactory) -> None:
    outcome = ballista(rules_table, broken=True).send(fire("lb", {"attack": [1]}, target=who("dummy")))
    assert (outcome["result"]["mishap"], outcome["result"]["engine_after"]["broken"]) == (True, True)
    assert [c["event"] for c in outcome["changes"]] == ["ActionsSpent", "ShotFired"]
