"""Siege towers, galleries and escalade ladders (PF-ASSAULT-08..10, PF-DIRECT-04, PF-ENGINE-01): the cover
they give against a ram or a shot, their speeds, the tower's capacity and its collapse."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    PROFICIENT,
    aimed_engine,
    applied,
    at,
    creature,
    crew,
    effect,
    engine,
    find,
    fire,
    rejected,
    setup,
    who,
)

rule = pytest.mark.rule
RAMMERS = ("lead", "k1", "k2", "k3", "k4")
ARMOR = {"armor_bonus": 6, "category": "medium", "metal": True, "base_price_gp": 200}


def ram_at(target: dict[str, Any], dice: dict[str, Any]) -> dict[str, Any]:
    return {"type": "ram", "engine_id": "lr", "target": target, "dice": dice}


def rammers(rules_table: TableFactory, *more: dict[str, Any]) -> Table:
    """A ram_large `lr` at (0,0) with five Medium crew (leader bab +3 proficient: +3 on the roll)."""
    t = rules_table("pathfinder")
    setup(
        t,
        engine("lr", "ram_large"),
        creature("lead", bab=3, **PROFICIENT),
        *(creature(k) for k in RAMMERS[1:]),
        crew("lr", *RAMMERS),
        *more,
    )
    return t


def inside(cid: str, host: str, level: str | None = None, **fields: Any) -> dict[str, Any]:
    where = {"engine_id": host, **({"level": level} if level else {})}
    return creature(cid, y=1, inside=where, **fields)


# --- siege towers (PF-ASSAULT-10) --------------------------------------------------------------------


@rule("PF-ASSAULT-10", "PF-DEF-06", "PF-GEN-11", "PF-ASSAULT-01")
def test_a_rammed_tower_collapses_on_everyone_inside(rules_table: TableFactory) -> None:
    t = rammers(
        rules_table,
        engine("st", "siege_tower_large", y=1, state={"hp": 3}),
        inside("low", "st", "lower"),
        inside("high", "st", "upper"),
        creature("pusher", y=2),
        crew("st", "pusher"),
    )
    # 13 vs ac 4 hits; 10 damage − hardness 5: hp 3 → −2
    result = applied(t, ram_at({"engine_id": "st"}, {"attack": [10], "damage": [5, 5]}))
    tower = effect(result, "st")
    assert (tower["hp_after"], tower["cave_in"], tower["conditions_added"]) == (-2, True, ["destroyed"])
    state = t.state()
    assert [find(state, "creatures", c)["conditions"] for c in ("low", "high")] == [["cave_in"], ["cave_in"]]
    assert find(state, "creatures", "pusher")["crewing"] is None
    assert find(state, "engines", "st")["destroyed"] is True


@rule("PF-ASSAULT-10", "PF-DIRECT-04")
def test_the_lower_storey_is_total_cover_the_upper_improved(rules_table: TableFactory) -> None:
    t = rammers(
        rules_table,
        engine("st", "siege_tower_large", y=1),
        inside("low", "st", "lower", ac=10),
        inside("high", "st", "upper", ac=10),
    )
    assert rejected(t, ram_at(who("low"), {"attack": [10]})) == "target_has_total_cover"
    upper = applied(t, ram_at(who("high"), {"attack": [15], "damage": [1, 1]}))
    assert (upper["roll"]["total"], upper["roll"]["target_number"], upper["hit"]) == (18, 18, True)


@rule("PF-ASSAULT-10", "PF-DIRECT-04")
def test_a_shot_at_the_lower_storey_is_refused_too(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        engine("st", "siege_tower_large", y=4),
        creature("low", y=4, inside={"engine_id": "st", "level": "lower"}),
        aimed_engine("lb", "ballista_light"),
        creature("aimer", **PROFICIENT),
        crew("lb", "aimer"),
    )
    assert rejected(t, fire("lb", {"attack": [10]}, target=who("low"))) == "target_has_total_cover"


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


@rule("PF-ASSAULT-10", "PF-MOVE-03", "PF-MOVE-04", "PF-DEF-03")
@pytest.mark.parametrize(
    ("fields", "speed"),
    [
        ({}, 15),
        ({"armor": ARMOR}, 10),
        ({"state": {"broken": True}}, 5),
        ({"armor": ARMOR, "state": {"broken": True}}, 5),
    ],
)
def test_tower_speed(rules_table: TableFactory, fields: dict[str, Any], speed: int) -> None:
    assert (
        applied(rules_table("pathfinder"), engine("st", "siege_tower_colossal", **fields))["speed_ft"]
        == speed
    )


# --- galleries (PF-ASSAULT-08) -----------------------------------------------------------------------


@rule("PF-ASSAULT-08", "PF-DIRECT-04", "PF-ASSAULT-01")
@pytest.mark.parametrize(("size", "target_number"), [("H", 12), ("L", 16), ("M", 20), ("S", None)])
def test_gallery_cover_against_a_ram_follows_the_size_gap(
    rules_table: TableFactory, size: str, target_number: int | None
) -> None:
    t = rammers(rules_table, engine("gal", "gallery_large", y=1), inside("x", "gal", size=size, ac=12))
    command = ram_at(who("x"), {"attack": [10], "damage": [1, 1]})
    if target_number is None:
        assert rejected(t, command) == "target_has_total_cover"
    else:
        assert applied(t, command)["roll"]["target_number"] == target_number


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


# --- escalade ladders (PF-ASSAULT-09) ----------------------------------------------------------------


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


@rule("PF-ASSAULT-09", "PF-DEF-03")
def test_a_ladder_cannot_be_armored(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    assert rejected(t, engine("lad", "ladder_escalade_huge", armor=ARMOR)) == "cannot_be_armored"


# --- legacy close-assault entries (PF-ENGINE-01) ------------------------------------------------------


@rule("PF-ENGINE-01")
@pytest.mark.parametrize("catalog_id", ["crb_ram", "crb_siege_tower"])
def test_core_rulebook_close_assault_engines_are_not_supported(
    rules_table: TableFactory, catalog_id: str
) -> None:
    assert rejected(rules_table("pathfinder"), engine("old", catalog_id)) == "engine_not_supported"
