"""Moving engines (PF-MOVE-01..06, PF-ENGINE-07, PF-CREW-04, PF-ASSAULT-08/09)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    ARMOR,
    HANDS,
    aimed_engine,
    applied,
    at,
    creature,
    crew,
    engine,
    find,
    load,
    move,
    park,
    rejected,
    setup,
    square,
)

rule = pytest.mark.rule


@pytest.mark.rule("PF-MOVE-01", "PF-TIME-02")
def test_a_full_crew_moves_its_engine_up_to_its_speed(rules_table: TableFactory) -> None:
    t = park(rules_table, engine("lc", "catapult_light"), crew("lc", "c1", "c2"))
    assert rejected(t, move("lc", 0, 3)) == "exceeds_speed"
    assert rejected(t, move("lc", 2, 2)) == "exceeds_speed"  # the second diagonal costs 10 ft: 15 ft
    outcome = t.send(move("lc", 1, 1))
    assert outcome["result"] == {
        "from": at(0, 0),
        "to": at(1, 1),
        "distance_ft": 5,
        "speed_ft": 10,
        "aim_reset": True,
        "round": 1,
        "unused_dice": [],
    }
    assert outcome["rolls"] == []
    state = t.state()
    assert find(state, "engines", "lc")["position"] == at(1, 1)
    assert [find(state, "creatures", c)["actions"] for c in ("c1", "c2", "c3")] == [
        {"standard": True, "move": False},
        {"standard": True, "move": False},
        {"standard": True, "move": True},
    ]
    assert find(state, "creatures", "c1")["position"] == at(0, 0)


@pytest.mark.rule("PF-MOVE-01", "PF-TIME-02")
def test_every_crew_member_spends_a_move_action(rules_table: TableFactory) -> None:
    t = park(rules_table, engine("lc", "catapult_light"), crew("lc", "c1", "c2"))
    applied(t, move("lc", 0, 2))
    applied(t, move("lc", 0, 4))  # the standard action stands in for the second move
    assert rejected(t, move("lc", 0, 5)) == "action_unavailable"
    assert find(t.state(), "engines", "lc")["position"] == at(0, 4)


@pytest.mark.rule("PF-MOVE-01", "PF-CREW-04", "PF-CREW-03")
def test_a_diminished_crew_cannot_move_the_engine(rules_table: TableFactory) -> None:
    t = park(
        rules_table,
        engine("lc", "catapult_light"),
        engine("lone", "catapult_light"),
        engine("tiny", "ballista_light"),
        creature("pixie", size="T"),
        crew("lc", "c1"),
        crew("tiny", "pixie"),
    )
    assert rejected(t, move("lc", 0, 1)) == "crew_insufficient"
    assert rejected(t, move("lone", 0, 1)) == "no_crew"
    assert rejected(t, move("tiny", 0, 1)) == "crew_insufficient"


@pytest.mark.rule("PF-MOVE-01", "PF-CREW-04")
def test_the_option_lets_a_diminished_crew_move_at_full_speed(rules_table: TableFactory) -> None:
    t = park(rules_table, engine("lc", "catapult_light"), crew("lc", "c1"), diminished_crew_can_move=True)
    assert applied(t, move("lc", 0, 2))["speed_ft"] == 10


@pytest.mark.rule("PF-MOVE-01", "PF-ASSAULT-08", "PF-CREW-04")
def test_a_gallery_keeps_its_own_crew_rule_under_the_option(rules_table: TableFactory) -> None:
    t = park(
        rules_table,
        engine("gal", "gallery_huge"),
        crew("gal", "c1", "c2", "c3"),
        engine("thin", "gallery_huge", x=9),
        crew("thin", "c4"),
        diminished_crew_can_move=True,
    )
    assert rejected(t, move("gal", 0, 2)) == "exceeds_speed"
    assert applied(t, move("gal", 0, 1))["speed_ft"] == 5
    assert rejected(t, move("thin", 9, 1)) == "crew_insufficient"


@pytest.mark.rule("PF-MOVE-02")
def test_an_assembled_engine_of_speed_0_is_immobile(rules_table: TableFactory) -> None:
    t = park(
        rules_table,
        engine("cs", "catapult_standard", assembled=True),
        crew("cs", "c1", "c2", "c3"),
        engine("br", "bridge_assault_large"),
    )
    assert rejected(t, move("cs", 0, 1)) == "immobile"
    assert rejected(t, move("br", 0, 1)) == "immobile"
    assert find(t.state(), "creatures", "c1")["actions"] == {"standard": True, "move": True}


@pytest.mark.rule("PF-MOVE-02", "PF-ASSEMBLE-05")
def test_a_disassembled_engine_moves_as_cargo(rules_table: TableFactory) -> None:
    t = park(rules_table, engine("cs", "catapult_standard"), engine("lc", "catapult_light", assembled=False))
    assert applied(t, move("cs", 50, 50)) == {
        "from": at(0, 0),
        "to": at(50, 50),
        "distance_ft": 375,
        "speed_ft": None,
        "aim_reset": True,
        "round": 1,
        "unused_dice": [],
    }
    setup(t, crew("lc", "c1"))
    assert applied(t, move("lc", 0, 100))["distance_ft"] == 500
    assert find(t.state(), "creatures", "c1")["actions"] == {"standard": True, "move": True}


@pytest.mark.rule("PF-MOVE-03", "PF-ASSAULT-09")
def test_an_escalade_ladder_moves_at_its_slowest_bearer_speed(rules_table: TableFactory) -> None:
    t = park(
        rules_table,
        creature("slow", speed_ft=20),
        engine("lad", "ladder_escalade_large"),
        crew("lad", "c1", "slow"),
    )
    assert rejected(t, move("lad", 0, 5)) == "exceeds_speed"
    assert applied(t, move("lad", 0, 4))["speed_ft"] == 20


@pytest.mark.rule("PF-MOVE-03", "PF-ASSAULT-10")
def test_a_siege_tower_in_medium_armor_moves_10_ft(rules_table: TableFactory) -> None:
    armor = {"armor_bonus": 6, "category": "medium", "metal": True, "base_price_gp": 200}
    t = park(
        rules_table,
        *(creature(f"h{n}") for n in range(6)),
        engine("st", "siege_tower_large", armor=armor),
        crew("st", *(f"h{n}" for n in range(6))),
    )
    assert rejected(t, move("st", 0, 3)) == "exceeds_speed"
    assert applied(t, move("st", 0, 2))["speed_ft"] == 10


@pytest.mark.rule("PF-MOVE-04", "PF-DEF-05")
@pytest.mark.parametrize(("catalog_id", "crew_ids", "speed"), [("catapult_light", 2, 5), ("ram_large", 5, 5)])
def test_a_broken_engine_moves_at_half_speed_rounded_to_5_ft(
    rules_table: TableFactory, catalog_id: str, crew_ids: int, speed: int
) -> None:
    t = park(
        rules_table,
        creature("c5"),
        engine("e", catalog_id, state={"broken": True}),
        crew("e", *(*HANDS, "c5")[:crew_ids]),
    )
    assert rejected(t, move("e", 0, 2)) == "exceeds_speed"
    assert applied(t, move("e", 0, 1))["speed_ft"] == speed


@pytest.mark.rule("PF-MOVE-04", "PF-ASSAULT-08")
def test_half_of_5_ft_is_0(rules_table: TableFactory) -> None:
    t = park(rules_table, engine("gal", "gallery_large", state={"broken": True}), crew("gal", "c1", "c2"))
    assert rejected(t, move("gal", 0, 1)) == "exceeds_speed"
    assert applied(t, move("gal", 0, 0))["speed_ft"] == 0


@pytest.mark.rule("PF-MOVE-05", "PF-ENGINE-07")
def test_a_carried_engine_needs_no_crew_and_has_no_speed_limit(rules_table: TableFactory) -> None:
    t = park(rules_table, engine("bs", "bombard_standard"), engine("cs", "catapult_standard"))
    carried = applied(t, move("bs", 0, 200, carried=True))
    assert (carried["distance_ft"], carried["speed_ft"]) == (1000, None)
    assert applied(t, move("cs", 3, 0, carried=True))["distance_ft"] == 15


@pytest.mark.rule("PF-MOVE-05", "PF-ENGINE-07")
@pytest.mark.parametrize(
    "catalog_id", ["trebuchet_light", "trebuchet_standard", "trebuchet_heavy", "bombard_heavy"]
)
def test_trebuchets_and_the_heavy_bombard_cannot_be_carried(
    rules_table: TableFactory, catalog_id: str
) -> None:
    t = park(rules_table, engine("e", catalog_id))
    assert rejected(t, move("e", 0, 8, carried=True)) == "cannot_be_carried"
    if not find(t.state(), "engines", "e")["assembled"]:
        assert applied(t, move("e", 0, 8))["speed_ft"] is None  # cargo (PF-MOVE-02)


@pytest.mark.rule("PF-MOVE-06", "PF-INDIRECT-05")
def test_moving_clears_aim_and_successive_shots_but_keeps_the_load(rules_table: TableFactory) -> None:
    t = park(
        rules_table,
        aimed_engine("lc", "catapult_light", square(0, 40), successive={"seen_misses": 2, "hit": True}),
        crew("lc", "c1", "c2"),
    )
    applied(t, move("lc", 0, 0, carried=True))
    lc = find(t.state(), "engines", "lc")
    assert (lc["aim_target"], lc["aim_progress"], lc["loaded"], lc["load_progress"]) == (None, 0, True, 3)
    assert lc["successive"] == {"seen_misses": 0, "unseen_misses": 0, "reported_misses": 0, "hit": False}


@pytest.mark.rule("PF-MOVE-01", "PF-MOVE-02", "PF-MOVE-05", "PF-DEF-06", "PF-TIME-04")
def test_move_preconditions_in_order(rules_table: TableFactory) -> None:
    t = park(
        rules_table,
        creature("c5"),
        engine("gone", "trebuchet_light", state={"hp": 0}),
        engine("lc", "catapult_light", state={"broken": True}),
        engine("cs", "catapult_standard", assembled=True),
        engine("lc2", "catapult_light"),
        crew("cs", "c1", "c2", "c3"),
        crew("lc2", "c4", "c5"),
    )
    assert rejected(t, move("gone", 0, 1, carried=True)) == "engine_destroyed"
    assert rejected(t, move("gone", 0, 1)) == "engine_destroyed"
    applied(t, {"type": "repair", "engine_id": "lc", "by": "c5", "kind": "broken", "take_10": True})
    assert rejected(t, move("lc", 0, 1)) == "engine_busy"
    assert applied(t, move("lc", 0, 1, carried=True))["distance_ft"] == 5
    assert rejected(t, move("lc2", 0, 9)) == "creature_busy"  # c5 is busy: before exceeds_speed
    applied(t, load("cs", ("c1", 1)))
    assert rejected(t, move("cs", 0, 1)) == "immobile"  # before the actor checks (c1 has no action left)


def _gallery(rules_table: TableFactory, crew_ids: tuple[str, ...], **fields: Any) -> Table:
    t = rules_table("pathfinder")
    setup(
        t,
        engine("gal", "gallery_huge", **fields),
        *(creature(f"g{n}") for n in range(6)),
        crew("gal", *crew_ids),
    )
    return t


def _move(y: int, engine_id: str = "gal") -> dict[str, Any]:
    return {"type": "move_engine", "engine_id": engine_id, "to": at(0, y)}


@rule("PF-ASSAULT-08", "PF-CREW-04", "PF-MOVE-01")
def test_gallery_speed_by_crew(rules_table: TableFactory) -> None:
    six = tuple(f"g{n}" for n in range(6))
    assert applied(_gallery(rules_table, six), _move(3))["speed_ft"] == 15
    half = _gallery(rules_table, six[:3])
    assert rejected(half, _move(2)) == "exceeds_speed"
    assert applied(half, _move(1))["speed_ft"] == 5
    assert rejected(_gallery(rules_table, six[:2]), _move(1)) == "crew_insufficient"


@rule("PF-ASSAULT-08", "PF-MOVE-04", "PF-DEF-03")
def test_an_armored_or_broken_gallery_is_slower(rules_table: TableFactory) -> None:
    six = tuple(f"g{n}" for n in range(6))
    assert applied(_gallery(rules_table, six, armor=ARMOR), _move(2))["speed_ft"] == 10
    broken = _gallery(rules_table, six, state={"broken": True})
    assert rejected(broken, _move(2)) == "exceeds_speed"
    assert applied(broken, _move(1))["speed_ft"] == 5
    half_broken = _gallery(rules_table, six[:3], state={"broken": True})
    assert rejected(half_broken, _move(1)) == "exceeds_speed"


@rule("PF-ASSAULT-09", "PF-MOVE-03", "PF-MOVE-04")
def test_a_ladder_moves_at_its_slowest_bearers_speed(rules_table: TableFactory) -> None:
    def ladder(**fields: Any) -> Table:
        t = rules_table("pathfinder")
        setup(
            t,
            engine("lad", "ladder_escalade_large", **fields),
            creature("quick", speed_ft=30),
            creature("slow", speed_ft=20),
            crew("lad", "quick", "slow"),
        )
        return t

    t = ladder()
    assert rejected(t, _move(5, "lad")) == "exceeds_speed"
    assert applied(t, _move(4, "lad"))["speed_ft"] == 20
    broken = ladder(state={"broken": True})
    assert rejected(broken, _move(3, "lad")) == "exceeds_speed"
    assert applied(broken, _move(2, "lad"))["speed_ft"] == 10
