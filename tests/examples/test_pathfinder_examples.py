"""spec/examples.md EX-PF-01..38, one test each, through `table.send` and its outcomes only."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    PROFICIENT,
    advance,
    aim,
    aimed_engine,
    applied,
    at,
    creature,
    crew,
    effect,
    engine,
    fire,
    labels,
    load,
    modifier,
    rejected,
    setup,
    skill,
    square,
    who,
)

example = pytest.mark.example
rule = pytest.mark.rule


def K(ranks: int, modifier: int) -> dict[str, Any]:
    return {"knowledge_engineering": skill(ranks, modifier)}


@example("EX-PF-01")
@rule("PF-CREW-01", "PF-CREW-03", "PF-CREW-04", "PF-LOAD-01", "PF-LOAD-02", "PF-AIM-02", "PF-AIM-04")
@rule("PF-AIM-05", "PF-DIRECT-01", "PF-DIRECT-02", "PF-DIRECT-03", "PF-DIRECT-05", "PF-TIME-01", "PF-TIME-02")
@rule("PF-TIME-05", "PF-GEN-01", "PF-GEN-06", "PF-GEN-10")
def test_ex_pf_01_heavy_ballista_with_a_diminished_crew(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    setup(
        t,
        creature("gunner", bab=4, dex_mod=2, **PROFICIENT),
        creature("helper", x=1),
        creature("ogre", size="L", ac=17, hp=30, y=12),
        engine("hb", "ballista_heavy"),
    )
    crewed = applied(t, crew("hb", "gunner", "helper"))
    assert (crewed["crew_equivalents"], crewed["crew_status"], crewed["aim_requirement"]) == (
        2,
        "diminished",
        4,
    )
    assert (crewed["load_requirement"], crewed["action_unit"], crewed["size_penalty_helpers"]) == (
        3,
        "full_round",
        1,
    )
    first = applied(t, load("hb", ("gunner", 1), ("helper", 1)))
    assert (first["load_progress"], first["load_requirement"], first["loaded"]) == (2, 3, False)
    assert applied(t, advance())["round"] == 2
    second = applied(t, load("hb", ("gunner", 1)))
    assert (second["load_progress"], second["loaded"], second["ammunition"]) == (3, True, "standard")
    aiming = applied(t, aim("hb", who("ogre"), ("helper", 1)))
    assert aiming["mode"] == "direct" and aiming["aimed"] is False
    assert aiming["range"] == {"distance_ft": 60, "increment_ft": 180, "increments": 1, "penalty": 0}
    assert (aiming["aim_progress"], aiming["aim_requirement"]) == (1, 4)
    applied(t, advance())
    assert applied(t, aim("hb", who("ogre"), ("gunner", 1), ("helper", 1)))["aim_progress"] == 3
    assert rejected(t, fire("hb")) == "action_unavailable"
    applied(t, advance())
    assert rejected(t, fire("hb")) == "not_aimed"
    assert applied(t, aim("hb", who("ogre"), ("helper", 1)))["aimed"] is True
    shot = applied(t, fire("hb", {"attack": [13], "damage": [5, 6, 2, 7]}))
    assert labels(shot["roll"]) == {"bab": 4, "dex": 2, "siege_size_penalty": -2}
    assert (shot["roll"]["total"], shot["roll"]["target_number"], shot["hit"], shot["threat"]) == (
        17,
        17,
        True,
        False,
    )
    assert shot["damage"]["total"] == 20 and effect(shot, "ogre")["hp_after"] == 10
    assert shot["engine_after"]["loaded"] is False and shot["round"] == 4
    assert rejected(t, aim("hb", who("ogre"))) == "already_aimed"  # aim persists after firing


@example("EX-PF-02")
@rule("PF-DIRECT-02", "PF-DIRECT-01", "PF-GEN-03", "PF-FEAT-05", "PF-AIM-03", "PF-CREW-02")
@pytest.mark.parametrize(
    ("catalog_id", "leader", "others", "penalty", "total"),
    [
        ("ballista_heavy", {}, [], -4, 6),
        ("ballista_heavy", {"skills": K(1, 1)}, [], 0, 10),
        (
            "ballista_heavy",
            {
                "skills": {"profession_siege_engineer": skill(5, 5)},
                "feats": ["siege_engineer", "siege_gunner"],
                "proficiencies": ["ballista_heavy"],
            },
            [],
            0,
            10,
        ),
        ("ballista_heavy", {}, ["T"], -4, 6),
        ("ballista_heavy", {}, ["S"], -2, 8),
        ("ballista_heavy", {}, ["M", "M"], 0, 10),
        ("ballista_light", {}, [], -2, 8),
        ("ballista_gate_breaker", {}, [], -6, 4),
        ("ballista_gate_breaker", {}, ["M"] * 4, 0, 10),
        ("ballista_light", {"size": "L"}, [], 0, 9),
    ],
    ids=list("abcdefghij"),
)
def test_ex_pf_02_siege_size_penalty_variants(
    new_table: TableFactory,
    catalog_id: str,
    leader: dict[str, Any],
    others: list[str],
    penalty: int,
    total: int,
) -> None:
    t = new_table("pathfinder")
    aim_0 = catalog_id == "ballista_light"
    setup(
        t,
        creature("dummy", ac=40, y=4),
        creature("L", **{**PROFICIENT, **leader}),
        *(creature(f"h{n}", size=size) for n, size in enumerate(others)),
        aimed_engine("e", catalog_id, None if aim_0 else who("dummy")),
    )
    applied(t, crew("e", "L", *(f"h{n}" for n in range(len(others)))))
    shot = applied(t, fire("e", {"attack": [10]}, **({"target": who("dummy")} if aim_0 else {})))
    assert modifier(shot["roll"], "siege_size_penalty") == penalty
    assert shot["roll"]["total"] == total and shot["hit"] is False and shot["damage"] is None
    if leader.get("size") == "L":
        assert modifier(shot["roll"], "attacker_size") == -1


@example("EX-PF-03")
@rule("PF-MAGIC-01", "PF-MAGIC-02", "PF-MAGIC-06", "PF-DEF-01", "PF-DEF-03", "PF-DEF-04", "PF-BUILD-01")
@rule("PF-ASSEMBLE-05")
def test_ex_pf_03_masterwork_enchanted_armored_standard_catapult(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    armor = {
        "armor_bonus": 9,
        "enhancement": 0,
        "category": "heavy",
        "metal": True,
        "masterwork": False,
        "base_price_gp": 1500,
    }
    cat = applied(
        t,
        engine(
            "cat", "catapult_standard", masterwork=True, enhancement=1, enchantment_price_bonus=2, armor=armor
        ),
    )
    assert (cat["ac"], cat["hardness"], cat["max_hp"], cat["cost_gp"]) == (12, 10, 145, 23100)
    assert cat["cost_breakdown"] == {"base": 800, "masterwork": 300, "enchantment": 16000, "armor": 6000}
    assert (cat["craft_dc"], cat["assembled"]) == (25, False)
    assert rejected(t, engine("cat2", "catapult_standard", enhancement=1)) == "not_masterwork"


@example("EX-PF-04")
@rule("PF-MAGIC-06", "PF-DEF-01", "PF-DEF-03", "PF-DEF-04")
def test_ex_pf_04_the_same_build_on_a_heavy_catapult(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    armor = {"armor_bonus": 9, "category": "heavy", "metal": True, "base_price_gp": 1500}
    hc = applied(
        t,
        engine(
            "hc", "catapult_heavy", masterwork=True, enhancement=1, enchantment_price_bonus=2, armor=armor
        ),
    )
    assert (hc["ac"], hc["hardness"], hc["max_hp"], hc["cost_gp"], hc["craft_dc"]) == (10, 10, 245, 29300, 25)
    assert hc["cost_breakdown"] == {"base": 1000, "masterwork": 300, "enchantment": 16000, "armor": 12000}


@example("EX-PF-05")
@rule("PF-DEF-01", "PF-DEF-02", "PF-ENGINE-01")
def test_ex_pf_05_engine_ac_by_size_and_missing_statistics(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    for eid, catalog_id, ac in (
        ("e1", "catapult_light", 4),
        ("e2", "catapult_standard", 3),
        ("e3", "catapult_heavy", 1),
        ("e4", "gallery_colossal", -3),
    ):
        assert applied(t, engine(eid, catalog_id))["ac"] == ac
    assert rejected(t, engine("e5", "springal_arrow")) == "missing_engine_stat"
    springal = applied(
        t, engine("e5", "springal_arrow", stat_overrides={"targeting_dc": 20, "hardness": 5, "hp": 100})
    )
    assert (springal["ac"], springal["hardness"], springal["max_hp"], springal["targeting_dc"]) == (
        3,
        5,
        100,
        20,
    )
    assert rejected(t, engine("e6", "crb_ballista")) == "engine_not_supported"


@example("EX-PF-06")
@rule("PF-MAGIC-01", "PF-MAGIC-02", "PF-MAGIC-03", "PF-MAGIC-06", "PF-BUILD-01", "PF-AIM-03", "PF-DIRECT-05")
def test_ex_pf_06_masterwork_and_plus_one_ballistas(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    setup(t, creature("archer", **PROFICIENT), creature("goblin", hp=15, y=6))
    lb1 = applied(t, engine("lb1", "ballista_light", masterwork=True))
    assert (lb1["cost_gp"], lb1["craft_dc"]) == (800, 25)
    lb2 = applied(t, engine("lb2", "ballista_light", masterwork=True, enhancement=1, state={"loaded": True}))
    assert lb2["cost_gp"] == 4800
    assert applied(t, engine("cs", "catapult_standard", masterwork=True, enhancement=1))["cost_gp"] == 5100
    assert applied(t, crew("lb2", "archer"))["crew_status"] == "full"
    assert rejected(t, aim("lb2", who("goblin"))) == "no_aim_needed"
    assert rejected(t, fire("lb2", {"attack": [12], "damage": [4, 4, 4]})) == "target_required"
    shot = applied(t, fire("lb2", {"attack": [12], "damage": [4, 4, 4]}, target=who("goblin")))
    assert labels(shot["roll"]) == {"enhancement": 1, "siege_size_penalty": -2}
    assert (shot["roll"]["total"], shot["hit"], shot["damage"]["total"]) == (11, True, 13)
    assert effect(shot, "goblin")["hp_after"] == 2


@example("EX-PF-07")
@rule("PF-DEF-03", "PF-DEF-04", "PF-ASSAULT-09")
def test_ex_pf_07_armored_heavy_ballista_and_unarmorable_engines(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    ab = applied(
        t,
        engine(
            "ab",
            "ballista_heavy",
            armor={"armor_bonus": 9, "category": "heavy", "metal": True, "base_price_gp": 1500},
        ),
    )
    assert (ab["ac"], ab["hardness"], ab["max_hp"], ab["cost_gp"]) == (12, 10, 145, 6800)
    assert ab["cost_breakdown"] == {"base": 800, "masterwork": 0, "enchantment": 0, "armor": 6000}
    ladder = engine(
        "lad",
        "ladder_escalade_large",
        armor={"armor_bonus": 4, "category": "medium", "metal": False, "base_price_gp": 50},
    )
    assert rejected(t, ladder) == "cannot_be_armored"


@example("EX-PF-08")
@rule("PF-AIM-05", "PF-AIM-04", "PF-GEN-04", "PF-GEN-02")
def test_ex_pf_08_range_increments_minimum_and_maximum_range(new_table: TableFactory) -> None:
    def battle(options: dict[str, Any] | None = None) -> Table:
        t = new_table("pathfinder", options)
        setup(
            t,
            creature("c1", **PROFICIENT),
            creature("c2"),
            engine("lc", "catapult_light"),
            crew("lc", "c1", "c2"),
        )
        return t

    t = battle()
    assert rejected(t, aim("lc", square(0, 8))) == "below_minimum_range"
    for (x, y), feet, increments, penalty in (
        ((0, 10), 50, 1, 0),
        ((0, 30), 150, 1, 0),
        ((0, 31), 155, 2, -2),
        ((0, 60), 300, 2, -2),
        ((0, 61), 305, 3, -4),
        ((30, 30), 225, 2, -2),
        ((0, 300), 1500, 10, -18),
    ):
        reach = applied(t, aim("lc", square(x, y)))["range"]
        assert reach == {
            "distance_ft": feet,
            "increment_ft": 150,
            "increments": increments,
            "penalty": penalty,
        }
    assert rejected(t, aim("lc", square(0, 301))) == "out_of_range"
    far = applied(battle({"max_range_increments": 12}), aim("lc", square(0, 301)))["range"]
    assert (far["increments"], far["penalty"]) == (11, -20)


@example("EX-PF-09")
@rule("PF-SCATTER-01", "PF-SCATTER-02", "PF-SCATTER-03", "PF-INDIRECT-03", "PF-INDIRECT-07", "PF-FEAT-05")
@rule("PF-FEAT-01")
def test_ex_pf_09_scatter_direction_and_distance(new_table: TableFactory) -> None:
    def battle(target: tuple[int, int], leader: dict[str, Any]) -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            creature("c1", **leader),
            creature("c2"),
            aimed_engine("lc", "catapult_light", square(*target)),
            crew("lc", "c1", "c2"),
        )
        return t

    a = applied(
        battle((0, 40), PROFICIENT),
        fire(
            "lc",
            {"targeting": [5], "scatter_direction": [5], "scatter_distance": [3, 4], "damage": [1, 2, 3, 4]},
        ),
    )
    assert (a["roll"]["total"], a["hit"]) == (3, False)
    assert a["landing"] == {
        "square": at(0, 47),
        "scatter": {"d8": 5, "direction": "N", "distance_squares": 7},
    }
    assert (a["damage"]["total"], a["effects"]) == (10, [])
    gunner = {
        "skills": {"profession_siege_engineer": skill(5, 5)},
        "feats": ["siege_engineer", "siege_gunner"],
        "proficiencies": ["catapult_light"],
    }
    b = applied(
        battle((0, 40), gunner),
        fire("lc", {"targeting": [5], "scatter_direction": [5], "damage": [1, 2, 3, 4]}),
    )
    assert b["landing"]["square"] == at(0, 42) and b["landing"]["scatter"]["distance_squares"] == 2
    c = applied(
        battle((20, 20), PROFICIENT),
        fire(
            "lc",
            {"targeting": [3], "scatter_direction": [3], "scatter_distance": [2], "damage": [1, 1, 1, 1]},
        ),
    )
    assert c["landing"]["square"] == at(18, 22) and c["landing"]["scatter"]["direction"] == "NW"


@example("EX-PF-10")
@rule("PF-INDIRECT-01", "PF-INDIRECT-02", "PF-INDIRECT-04", "PF-INDIRECT-05", "PF-GEN-08", "PF-DEF-05")
@rule("PF-MAGIC-03", "PF-AIM-05")
@pytest.mark.parametrize(
    ("leader", "placed", "expected", "total", "hit"),
    [
        (
            {},
            {},
            {
                "bab": 5,
                "knowledge_engineering": 9,
                "range": -2,
                "no_line_of_sight": -6,
                "successive_misses_seen": 4,
            },
            15,
            True,
        ),
        (
            {"skills": K(0, 0)},
            {},
            {"bab": 5, "int": 3, "range": -2, "no_line_of_sight": -6, "successive_misses_seen": 4},
            9,
            False,
        ),
        (
            {"skills": K(0, 0), "proficiencies": []},
            {},
            {
                "bab": 5,
                "int": 3,
                "nonproficient": -4,
                "range": -2,
                "no_line_of_sight": -6,
                "successive_misses_seen": 4,
            },
            5,
            False,
        ),
        (
            {},
            {"broken": True},
            {
                "bab": 5,
                "knowledge_engineering": 9,
                "range": -2,
                "broken": -2,
                "no_line_of_sight": -6,
                "successive_misses_seen": 4,
            },
            13,
            False,
        ),
        (
            {},
            {"masterwork": True, "enhancement": 1},
            {
                "bab": 5,
                "knowledge_engineering": 9,
                "enhancement": 1,
                "range": -2,
                "no_line_of_sight": -6,
                "successive_misses_seen": 4,
            },
            16,
            True,
        ),
    ],
    ids=list("ABCDE"),
)
def test_ex_pf_10_targeting_check_totals(
    new_table: TableFactory,
    leader: dict[str, Any],
    placed: dict[str, Any],
    expected: dict[str, int],
    total: int,
    hit: bool,
) -> None:
    t = new_table("pathfinder")
    placed = dict(placed)  # shared by the rules and http runs of this case: popping it would change the next
    broken = {"broken": True} if placed.pop("broken", False) else {}
    lc = aimed_engine("lc", "catapult_light", square(0, 40), successive={"seen_misses": 2}, **broken) | placed
    setup(
        t,
        creature("eng", bab=5, int_mod=3, **{**PROFICIENT, "skills": K(3, 9), **leader}),
        creature("c2"),
        lc,
        crew("lc", "eng", "c2"),
    )
    dice: dict[str, Any] = {"targeting": [5]}
    dice |= (
        {"damage": [2, 3, 4, 5]}
        if hit
        else {"scatter_direction": [1], "scatter_distance": [1, 1], "damage": [1, 1, 1, 1]}
    )
    shot = applied(t, fire("lc", dice, line_of_sight=False, crew_sees_landing=False))
    assert labels(shot["roll"]) == expected
    assert (shot["roll"]["total"], shot["hit"]) == (total, hit)
    if hit:
        assert shot["landing"]["square"] == at(0, 40)
        assert shot["damage"]["total"] == 14 + placed.get("enhancement", 0)
    else:
        assert shot["landing"]["square"] == at(0, 38)


@example("EX-PF-11")
@rule("PF-INDIRECT-05", "PF-INDIRECT-06", "PF-INDIRECT-04", "PF-FEAT-03", "PF-LOAD-01", "PF-LOAD-04")
@rule("PF-MOVE-01", "PF-MOVE-06", "PF-SCATTER-01", "PF-TIME-02")
def test_ex_pf_11_successive_shots_seen_misses_an_observer_a_hit_a_move(new_table: TableFactory) -> None:
    lead: dict[str, Any] = {
        "skills": K(10, 10),
        "feats": ["siege_engineer", "master_siege_engineer"],
        "proficiencies": ["catapult_light"],
    }
    for state, modifier_total, total in (
        ({"seen_misses": 7}, 10, 26),
        ({"reported_misses": 3}, 3, 19),
        ({"reported_misses": 6}, 5, 21),
        ({"seen_misses": 2, "reported_misses": 1}, 5, 21),
        ({"seen_misses": 4, "reported_misses": 4}, 10, 26),
        ({"hit": True, "seen_misses": 3}, 10, 26),
    ):
        table = new_table("pathfinder")
        setup(
            table,
            creature("lead", **lead),
            creature("mate", x=1),
            aimed_engine("lc", "catapult_light", square(0, 90), successive=state),
            crew("lc", "lead", "mate"),
        )
        shot = applied(table, fire("lc", {"targeting": [10], "damage": [1, 1, 1, 1]}))
        successive = sum(v for k, v in labels(shot["roll"]).items() if k.startswith("successive"))
        assert (successive, shot["roll"]["total"]) == (modifier_total, total)
    table = new_table("pathfinder")
    setup(
        table,
        creature("lead", **lead),
        creature("mate", x=1),
        aimed_engine("lc", "catapult_light", square(0, 90), successive={"seen_misses": 1}),
        crew("lc", "lead", "mate"),
    )
    blind = applied(
        table,
        fire(
            "lc",
            {
                "targeting": [10],
                "scatter_direction": [1],
                "scatter_distance": [1, 1, 1],
                "damage": [1, 1, 1, 1],
            },
            line_of_sight=False,
        ),
    )
    assert (blind["roll"]["total"], blind["hit"], blind["landing"]["square"]) == (12, False, at(0, 87))

    t = new_table("pathfinder")
    setup(
        t,
        creature("lead", **lead),
        creature("mate", x=1),
        creature("spotter", y=85),
        engine("lc", "catapult_light", state={"aimed_at": square(0, 90)}),
    )
    assert applied(t, crew("lc", "lead", "mate"))["action_unit"] == "move"
    reload = load("lc", ("lead", 1), ("mate", 2))
    assert applied(t, reload)["loaded"] is True
    one = applied(
        t,
        fire(
            "lc",
            {
                "targeting": [3],
                "scatter_direction": [1],
                "scatter_distance": [1, 1, 1],
                "damage": [1, 1, 1, 1],
            },
        ),
    )
    assert (one["roll"]["total"], one["landing"]["square"]) == (9, at(0, 87))
    assert one["engine_after"]["successive"]["seen_misses"] == 1
    applied(t, advance())
    applied(t, reload)
    two = applied(
        t,
        fire(
            "lc",
            {
                "targeting": [4],
                "scatter_direction": [5],
                "scatter_distance": [2, 2, 2],
                "damage": [1, 1, 1, 1],
            },
        ),
    )
    assert modifier(two["roll"], "successive_misses_seen") == 2
    assert (two["roll"]["total"], two["landing"]["square"]) == (12, at(0, 96))
    applied(t, advance())
    applied(t, reload)
    three = applied(
        t,
        fire(
            "lc",
            {
                "targeting": [10],
                "scatter_direction": [3],
                "scatter_distance": [1, 2, 1],
                "damage": [1, 1, 1, 1],
            },
            line_of_sight=False,
        ),
    )
    assert (
        labels(three["roll"])["no_line_of_sight"] == -6
        and modifier(three["roll"], "successive_misses_seen") == 4
    )
    assert (three["roll"]["total"], three["landing"]["scatter"]["direction"]) == (14, "W")
    assert (
        three["landing"]["square"] == at(-4, 90) and three["engine_after"]["successive"]["unseen_misses"] == 1
    )
    seen = applied(t, {"type": "observe", "engine_id": "lc", "observer_id": "spotter"})
    assert (seen["reported_now"], seen["reported_misses"], seen["next_successive_modifier"]) == (1, 1, 5)
    applied(t, advance())
    applied(t, reload)
    four = applied(t, fire("lc", {"targeting": [4], "damage": [2, 2, 2, 2]}))
    assert (
        modifier(four["roll"], "successive_misses_seen"),
        modifier(four["roll"], "successive_misses_reported"),
    ) == (
        4,
        1,
    )
    assert (four["roll"]["total"], four["hit"], four["damage"]["total"], four["effects"]) == (15, True, 8, [])
    applied(t, advance())
    applied(t, reload)
    five = applied(t, fire("lc", {"targeting": [2], "damage": [3, 3, 3, 3]}))
    assert labels(five["roll"]) == {"knowledge_engineering": 10, "range": -4, "successive_after_hit": 10}
    assert (five["roll"]["total"], five["hit"]) == (18, True)
    applied(t, advance())
    assert applied(t, reload)["loaded"] is True
    assert applied(t, advance())["round"] == 7
    moved = applied(t, {"type": "move_engine", "engine_id": "lc", "to": at(0, 1)})
    assert (moved["distance_ft"], moved["speed_ft"], moved["aim_reset"]) == (5, 10, True)
    assert rejected(t, fire("lc")) == "not_aimed"


@example("EX-PF-12")
@rule(
    "PF-CRIT-01", "PF-CRIT-02", "PF-CRIT-03", "PF-CRIT-04", "PF-ENGINE-02", "PF-INDIRECT-08", "PF-STRUCT-05"
)
@rule("PF-GEN-09", "PF-GEN-10")
def test_ex_pf_12_critical_hits(new_table: TableFactory) -> None:
    def catapult() -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            creature("eng", bab=5, skills=K(3, 9), feats=["critical_focus"], **PROFICIENT),
            creature("c2"),
            creature("orc", hp=40, saves={"ref": 1}, y=20),
            aimed_engine("lc", "catapult_light", square(0, 20)),
            crew("lc", "eng", "c2"),
        )
        return t

    a = applied(
        catapult(),
        fire("lc", {"targeting": [20], "confirm": [12], "damage": [6, 5, 4, 3, 2, 1, 6, 5], "save": [3]}),
    )
    assert (a["roll"]["total"], a["hit"], a["threat"], a["confirm"]["total"], a["confirm"]["success"]) == (
        34,
        True,
        True,
        26,
        True,
    )
    assert (a["critical_multiplier"], a["damage"]["total"], a["damage"]["base"]) == (2, 32, 18)
    orc = effect(a, "orc")
    assert (orc["save"]["total"], orc["save"]["success"], orc["hp_after"]) == (4, False, 8)
    b = applied(
        catapult(), fire("lc", {"targeting": [20], "confirm": [1], "damage": [6, 5, 4, 3], "save": [15]})
    )
    assert (b["confirm"]["success"], b["critical_multiplier"], b["damage"]["total"]) == (False, 1, 18)
    assert (effect(b, "orc")["save"]["total"], effect(b, "orc")["hp_after"]) == (16, 31)

    def gate_breaker(target: dict[str, Any]) -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            creature("gb", bab=6, dex_mod=1, skills=K(1, 1), **PROFICIENT),
            target,
            aimed_engine("brk", "ballista_gate_breaker", {"structure_id": target["id"]}),
            crew("brk", "gb"),
        )
        return t

    gate = {
        "type": "add_structure",
        "id": "g1",
        "kind": "gate",
        "material": "wood",
        "size": "H",
        "position": at(0, 10),
    }
    c = applied(
        gate_breaker(gate),
        fire("brk", {"attack": [19], "confirm": [2], "damage": [8, 7, 6, 5, 4, 3, 2, 1] * 2 + [5, 4]}),
    )
    assert (c["roll"]["total"], c["hit"], c["threat"], c["confirm"]["total"], c["critical_multiplier"]) == (
        26,
        True,
        True,
        9,
        3,
    )
    g1 = effect(c, "g1")
    assert (c["damage"]["total"], g1["hardness_applied"], g1["hp_loss"], g1["hp_after"]) == (81, 5, 76, 59)
    assert g1["conditions_added"] == ["broken", "breached"]
    wall = {
        "type": "add_structure",
        "id": "w1",
        "kind": "wall",
        "material": "stone",
        "position": at(0, 10),
        "stat_overrides": {"hardness": 8, "hp": 90},
    }
    d = applied(
        gate_breaker(wall), fire("brk", {"attack": [19], "confirm": [2], "damage": [8] * 6 + [1] * 6})
    )
    w1 = effect(d, "w1")
    assert (d["critical_multiplier"], d["damage"]["total"], w1["hp_loss"], w1["hp_after"]) == (2, 54, 46, 44)
    assert w1["conditions_added"] == ["broken"]


@example("EX-PF-13")
@rule("PF-MISHAP-01", "PF-MISHAP-02", "PF-GEN-07", "PF-DEF-05", "PF-MOVE-01", "PF-MOVE-04", "PF-SCATTER-04")
@rule("PF-FEAT-02")
def test_ex_pf_13_mishap_on_a_natural_one_broken_speed_siege_engineer(new_table: TableFactory) -> None:
    dice = {"targeting": [1], "scatter_direction": [2], "scatter_distance": [2], "damage": [1, 2, 3, 4]}

    def battle(leader: dict[str, Any], **state: Any) -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            creature("lead", **leader),
            creature("c2", x=1),
            aimed_engine("lc", "catapult_light", square(0, 20), **state),
            crew("lc", "lead", "c2"),
        )
        return t

    vet = applied(
        battle({"bab": 2, "skills": K(5, 5), "feats": ["siege_engineer"], **PROFICIENT}), fire("lc", dice)
    )
    assert (vet["roll"]["total"], vet["hit"], vet["mishap"], vet["engine_after"]["broken"]) == (
        8,
        False,
        False,
        False,
    )
    assert vet["landing"]["square"] == at(-2, 18)
    worn = applied(battle({"bab": 2, "int_mod": 1, **PROFICIENT}, broken=True), fire("lc", dice))
    assert labels(worn["roll"]) == {"bab": 2, "int": 1, "broken": -2} and worn["roll"]["total"] == 2
    assert (worn["mishap"], worn["engine_after"]["broken"], worn["landing"]["square"]) == (
        True,
        True,
        at(-2, 18),
    )
    assert worn["damage"]["total"] == 8

    t = battle({"bab": 2, "int_mod": 1, **PROFICIENT})
    shot = applied(t, fire("lc", dice))
    assert (shot["roll"]["total"], shot["hit"], shot["mishap"], shot["engine_after"]["broken"]) == (
        4,
        False,
        True,
        True,
    )
    assert shot["landing"] == {
        "square": at(-2, 18),
        "scatter": {"d8": 2, "direction": "SW", "distance_squares": 2},
    }
    assert shot["damage"]["total"] == 10
    applied(t, advance())
    assert rejected(t, {"type": "move_engine", "engine_id": "lc", "to": at(0, 2)}) == "exceeds_speed"
    assert applied(t, {"type": "move_engine", "engine_id": "lc", "to": at(0, 1)})["distance_ft"] == 5


@example("EX-PF-14")
@rule(
    "PF-MISFIRE-01", "PF-MISFIRE-02", "PF-MISFIRE-03", "PF-MISFIRE-05", "PF-DEF-05", "PF-DEF-06", "PF-GEN-09"
)
@rule("PF-FEAT-02", "PF-SCATTER-04")
def test_ex_pf_14_light_bombard_misfire_then_explosion(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    setup(
        t,
        creature(
            "gun",
            bab=3,
            int_mod=2,
            hp=30,
            saves={"ref": 1},
            skills={"profession_siege_engineer": skill(5, 5)},
            feats=["siege_engineer"],
            proficiencies=["firearms"],
        ),
        creature("loader", hp=25, x=1),
        creature("b2", hp=12, saves={"ref": 2}, y=2),
        creature("b3", y=3),
        aimed_engine("lb", "bombard_light", square(0, 30)),
        crew("lb", "gun", "loader"),
    )
    first = applied(
        t,
        fire(
            "lb",
            {
                "targeting": [2],
                "scatter_direction": [4],
                "scatter_distance": [1, 3],
                "damage": [1, 2, 3, 4, 5],
            },
        ),
    )
    assert (first["roll"]["total"], first["misfire"], first["hit"]) == (5, True, False)
    assert first["engine_after"]["broken"] is True and first["engine_after"]["misfire_max"] == 6
    assert first["landing"]["square"] == at(-4, 34) and first["landing"]["scatter"]["direction"] == "NW"
    assert first["damage"]["total"] == 15
    applied(t, advance())
    assert applied(t, load("lb", ("gun", 1), ("loader", 1)))["load_progress"] == 2
    applied(t, advance())
    assert applied(t, load("lb", ("loader", 1)))["loaded"] is True
    boom = applied(
        t,
        fire("lb", {"targeting": [6], "explosion_damage": [6, 5, 4, 3, 2], "explosion_reflex": [19, 5, 18]}),
    )
    assert (boom["misfire"], boom["exploded"], boom["landing"], boom["damage"]["total"]) == (
        True,
        True,
        None,
        20,
    )
    assert [(e["entity_id"], e["zone"], e["damage_after_save"], e["hp_after"]) for e in boom["effects"]] == [
        ("gun", "explosion", 10, 20),
        ("loader", "explosion", 20, 5),
        ("b2", "explosion", 10, 2),
    ]
    assert boom["engine_after"]["destroyed"] is True
    assert rejected(t, fire("lb")) == "engine_destroyed"
    cannon = applied(new_table("pathfinder"), engine("cn", "cannon", state={"broken": True}))
    assert cannon["misfire_max"] == 5


@example("EX-PF-15")
@rule("PF-CREW-02", "PF-CREW-03", "PF-CREW-06", "PF-GEN-02")
def test_ex_pf_15_crew_equivalents_and_status(new_table: TableFactory) -> None:
    def crewed(catalog_id: str, sizes: list[str], options: dict[str, Any] | None = None) -> tuple[Table, Any]:
        t = new_table("pathfinder", options)
        ids = [f"{s.lower()}{n}" for n, s in enumerate(sizes)]
        setup(
            t,
            engine("e", catalog_id, assembled=True),
            *(creature(i, size=s) for i, s in zip(ids, sizes, strict=True)),
        )
        return t, applied(t, crew("e", *ids))

    for catalog_id, sizes, equivalents, status in (
        ("ballista_gate_breaker", ["L", "M"], 5, "full"),
        ("ram_colossal", ["H", "H"], 16, "diminished"),
        ("catapult_heavy", ["G"], 16, "full"),
        ("siege_tower_colossal", ["C"], 20, "diminished"),
        ("ram_large", ["S"] * 10, 5, "full"),
        ("ram_large", ["S"] * 9, 4.5, "diminished"),
        ("ballista_light", ["S"], 0.5, "insufficient"),
        ("ballista_light", ["T"], 0, "insufficient"),
    ):
        _, result = crewed(catalog_id, sizes)
        assert (result["crew_equivalents"], result["crew_status"]) == (equivalents, status), catalog_id
    assert crewed("catapult_heavy", ["G"], {"crew_equivalence": "printed"})[1]["crew_equivalents"] == 20
    assert crewed("siege_tower_colossal", ["C"], {"crew_equivalence": "printed"})[1]["crew_equivalents"] == 16
    t, _ = crewed("ballista_light", ["S"])
    assert rejected(t, load("e", ("s0", 1))) == "crew_insufficient"


@example("EX-PF-16")
@rule("PF-CREW-04", "PF-AIM-02", "PF-LOAD-01", "PF-LOAD-02", "PF-FEAT-03", "PF-FEAT-01")
def test_ex_pf_16_diminished_crew_and_master_siege_engineer(new_table: TableFactory) -> None:
    master: dict[str, Any] = {
        "skills": K(10, 10),
        "feats": ["siege_engineer", "master_siege_engineer"],
        "proficiencies": ["ballista_heavy"],
    }
    t = new_table("pathfinder")
    setup(t, engine("hb", "ballista_heavy"), creature("m1"), creature("m2"), creature("master", **master))
    one = applied(t, crew("hb", "m1", "m2"))
    assert (one["aim_requirement"], one["load_requirement"], one["action_unit"]) == (4, 3, "full_round")
    assert rejected(t, load("hb", ("m1", 2))) == "too_many_actions"
    three = applied(t, crew("hb", "master", "m2"))
    assert (three["aim_requirement"], three["load_requirement"], three["action_unit"]) == (4, 3, "move")
    c = new_table("pathfinder")
    setup(
        c,
        engine("ch", "catapult_heavy", assembled=True),
        creature("master", **master),
        *(creature(m) for m in ("m3", "m4", "m5")),
    )
    four = applied(c, crew("ch", "master", "m3", "m4", "m5"))
    assert (four["crew_status"], four["aim_requirement"], four["action_unit"]) == ("full", 3, "move")
    assert (
        rejected(t, creature("x", feats=["master_siege_engineer"], skills=K(10, 10)))
        == "feat_prerequisite_missing"
    )
    b = new_table("pathfinder", {"diminished_doubles_load": True})
    setup(b, engine("hb", "ballista_heavy"), creature("m1"), creature("m2"))
    assert applied(b, crew("hb", "m1", "m2"))["load_requirement"] == 6


@example("EX-PF-17")
@rule("PF-TIME-02", "PF-TIME-05", "PF-LOAD-02", "PF-AIM-02", "PF-AIM-04", "PF-FEAT-03", "PF-DIRECT-02")
def test_ex_pf_17_time_to_the_first_shot(new_table: TableFactory) -> None:
    a = new_table("pathfinder")
    setup(
        a,
        creature("dummy", hp=20, y=20),
        engine("hb", "ballista_heavy"),
        creature("c1"),
        creature("c2"),
        creature("L1", **PROFICIENT),
        crew("hb", "L1", "c1", "c2"),
    )
    assert applied(a, load("hb", ("L1", 1), ("c1", 1), ("c2", 1)))["loaded"] is True
    zero = applied(a, aim("hb", who("dummy")))
    assert (zero["aim_progress"], zero["aim_requirement"], zero["aimed"]) == (0, 2, False)
    assert rejected(a, fire("hb")) == "action_unavailable"
    applied(a, advance())
    assert applied(a, aim("hb", who("dummy"), ("c1", 1), ("c2", 1)))["aimed"] is True
    shot = applied(a, fire("hb", {"attack": [15], "damage": [1, 2, 3, 4]}))
    assert modifier(shot["roll"], "siege_size_penalty") == 0
    assert (
        shot["roll"]["total"],
        shot["hit"],
        shot["damage"]["total"],
        effect(shot, "dummy")["hp_after"],
    ) == (
        15,
        True,
        10,
        10,
    )
    assert shot["round"] == 2
    b = new_table("pathfinder")
    setup(
        b,
        creature("dummy", hp=20, y=20),
        engine("hb", "ballista_heavy"),
        creature("c1"),
        creature("c2"),
        creature(
            "L2",
            skills=K(10, 10),
            feats=["siege_engineer", "master_siege_engineer"],
            proficiencies=["ballista_heavy"],
        ),
        crew("hb", "L2", "c1", "c2"),
    )
    assert applied(b, load("hb", ("c1", 2), ("L2", 1)))["loaded"] is True
    aimed = applied(b, aim("hb", who("dummy"), ("c2", 2)))
    assert (aimed["aim_progress"], aimed["aimed"]) == (2, True)
    first = applied(b, fire("hb", {"attack": [15], "damage": [1, 2, 3, 4]}))
    assert (first["roll"]["total"], first["hit"], first["damage"]["total"], first["round"]) == (
        15,
        True,
        10,
        1,
    )


@example("EX-PF-23")
@rule("PF-ASSAULT-10", "PF-MOVE-03", "PF-MOVE-04", "PF-DEF-03", "PF-DEF-04", "PF-DEF-06")
def test_ex_pf_23_siege_towers_armor_speed_capacity_collapse(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    st = applied(t, engine("st", "siege_tower_huge"))
    assert (st["ac"], st["hardness"], st["max_hp"], st["speed_ft"], st["crew_required"]) == (
        3,
        5,
        240,
        15,
        12,
    )
    st2 = applied(
        t,
        engine(
            "st2",
            "siege_tower_huge",
            armor={"armor_bonus": 6, "category": "medium", "metal": True, "base_price_gp": 200},
        ),
    )
    assert (st2["ac"], st2["hardness"], st2["max_hp"], st2["speed_ft"], st2["cost_gp"]) == (
        9,
        10,
        270,
        10,
        2800,
    )
    assert applied(t, engine("st3", "siege_tower_huge", state={"broken": True}))["speed_ft"] == 5
    for n in range(20):
        applied(t, creature(f"u{n}", inside={"engine_id": "st", "level": "upper"}))
    assert rejected(t, creature("u20", inside={"engine_id": "st", "level": "upper"})) == "tower_full"
    b = new_table("pathfinder")
    setup(
        b,
        engine("st4", "siege_tower_huge", y=10, state={"hp": 3}),
        creature("pusher", y=10, inside={"engine_id": "st4", "level": "lower"}),
        aimed_engine("lb", "ballista_light"),
        creature("aimer", skills=K(1, 1), **PROFICIENT),
        crew("lb", "aimer"),
    )
    outcome = b.send(fire("lb", {"attack": [10], "damage": [3, 3, 3]}, target={"engine_id": "st4"}))
    shot = outcome["result"]
    tower = effect(shot, "st4")
    assert (shot["roll"]["total"], shot["roll"]["target_number"], shot["damage"]["total"]) == (10, 3, 9)
    assert (tower["hp_loss"], tower["hp_after"], tower["cave_in"]) == (4, -1, True)
    assert "destroyed" in tower["conditions_added"]
    caught = [c for c in outcome["changes"] if c["event"] == "ConditionsAdded" and c["entity_id"] == "pusher"]
    assert [c["conditions"] for c in caught] == [["cave_in"]]


@example("EX-PF-24")
@rule("PF-DIRECT-04", "PF-ASSAULT-08", "PF-CREW-04", "PF-MOVE-01")
def test_ex_pf_24_gallery_cover_and_gallery_speed(new_table: TableFactory) -> None:
    def shooting(target: str) -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            engine("gal", "gallery_large", y=10),
            *(
                creature(cid, size=size, ac=12, y=10, inside={"engine_id": "gal"})
                for cid, size in (("big", "L"), ("mid", "M"), ("small", "S"))
            ),
            aimed_engine("lb", "ballista_light"),
            creature("aimer", bab=5, dex_mod=2, skills=K(1, 1), **PROFICIENT),
            crew("lb", "aimer"),
        )
        return t

    big = applied(shooting("big"), fire("lb", {"attack": [9], "damage": [1, 1, 1]}, target=who("big")))
    assert (
        big["roll"]["total"],
        big["roll"]["target_number"],
        big["hit"],
        effect(big, "big")["hp_after"],
    ) == (
        16,
        16,
        True,
        7,
    )
    mid = applied(shooting("mid"), fire("lb", {"attack": [9]}, target=who("mid")))
    assert (mid["roll"]["total"], mid["roll"]["target_number"], mid["hit"]) == (16, 20, False)
    assert rejected(shooting("small"), fire("lb", target=who("small"))) == "target_has_total_cover"

    def gallery(crew_ids: list[str], **fields: Any) -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            engine("gal", "gallery_large", **fields),
            *(creature(g) for g in ("g1", "g2", "g3")),
            crew("gal", *crew_ids),
        )
        return t

    def move(y: int) -> dict[str, Any]:
        return {"type": "move_engine", "engine_id": "gal", "to": at(0, y)}

    assert applied(gallery(["g1", "g2", "g3"]), move(3))["distance_ft"] == 15
    half = gallery(["g1", "g2"])
    assert rejected(half, move(2)) == "exceeds_speed"
    assert applied(half, move(1))["distance_ft"] == 5
    assert rejected(gallery(["g1"]), move(1)) == "crew_insufficient"
    armor = {"armor_bonus": 6, "category": "medium", "metal": True, "base_price_gp": 200}
    armored = new_table("pathfinder")
    assert applied(armored, engine("gal", "gallery_large", armor=armor))["speed_ft"] == 10
    setup(armored, *(creature(g) for g in ("g1", "g2", "g3")), crew("gal", "g1", "g2", "g3"))
    moved = applied(armored, move(2))
    assert (moved["distance_ft"], moved["speed_ft"]) == (10, 10)


@example("EX-PF-26")
@rule("PF-ENGINE-06", "PF-INDIRECT-07", "PF-GEN-09", "PF-GEN-05", "PF-ASSEMBLE-05")
def test_ex_pf_26_trebuchet_splash(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    setup(
        t,
        creature("tl", bab=4, skills=K(2, 6), **PROFICIENT),
        *(creature(c) for c in ("t2", "t3", "t4")),
        aimed_engine("tb", "trebuchet_standard", square(0, 50), assembled=True),
        crew("tb", "tl", "t2", "t3", "t4"),
        creature("x0", hp=30, y=50),
        creature("x10a", hp=30, saves={"ref": 2}, y=52),
        creature("x10b", hp=30, x=2, y=50),
        creature("x20", hp=30, y=54),
    )
    shot = applied(t, fire("tb", {"targeting": [10], "damage": [6, 5, 4, 3, 2, 1], "save": [17, 20]}))
    assert (shot["roll"]["total"], shot["hit"], shot["damage"]["total"]) == (20, True, 21)
    assert [
        (e["entity_id"], e["zone"], e["damage_in"], e["damage_after_save"], e["hp_after"])
        for e in shot["effects"]
    ] == [
        ("x0", "target", 21, 21, 9),
        ("x10a", "splash", 10, 10, 20),
        ("x10b", "splash", 10, 5, 25),
    ]
    assert effect(shot, "x0")["save"] is None and effect(shot, "x10a")["save"]["total"] == 19


@example("EX-PF-27")
@rule("PF-ENGINE-03", "PF-MISHAP-03", "PF-AIM-01", "PF-GEN-09", "PF-GEN-11")
def test_ex_pf_27_firedrake_and_firewyrm(new_table: TableFactory) -> None:
    def battle(eid: str, catalog_id: str, **fields: Any) -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            creature("fl", **PROFICIENT),
            creature("f2"),
            creature("f3"),
            aimed_engine(eid, catalog_id, square(0, 12), **fields),
            crew(eid, "fl", "f2", "f3"),
            creature("v1", hp=30, saves={"ref": 1}, y=4),
            creature("v2", hp=30, saves={"ref": 3}, y=8),
            creature("v3", hp=30, y=13),
        )
        return t

    t = battle("fd", "firedrake")
    assert rejected(t, fire("fd", area={"shape": "line", "target_ids": ["v1", "v3"]})) == "target_out_of_area"
    gout = applied(
        t,
        fire(
            "fd",
            {"operation": [12], "damage": [6, 5, 3, 2, 3, 1], "save": [10, 12]},
            area={"shape": "line", "target_ids": ["v1", "v2"]},
        ),
    )
    assert (gout["kind"], gout["mode"], gout["damage"]["total"], gout["roll"]["natural"]) == (
        "area",
        "area",
        20,
        12,
    )
    assert [
        (e["entity_id"], e["zone"], e["damage_after_save"], e["hp_after"], e["conditions_added"])
        for e in gout["effects"]
    ] == [("v1", "area", 20, 10, ["on_fire"]), ("v2", "area", 10, 20, [])]
    b = battle("fw", "firewyrm", assembled=True)
    assert rejected(b, fire("fw", area={"shape": "cone", "target_ids": ["v3"]})) == "target_out_of_area"
    wyrm = applied(
        b,
        fire(
            "fw",
            {"operation": [5], "damage": [1] * 6, "save": [15]},
            area={"shape": "line", "target_ids": ["v3"]},
        ),
    )
    v3 = effect(wyrm, "v3")
    assert (wyrm["damage"]["total"], v3["save"]["dc"], v3["conditions_added"], v3["hp_after"]) == (
        6,
        20,
        ["on_fire"],
        24,
    )


def _alchemist(new_table: TableFactory, ammunition: str, *more: dict[str, Any], leader: str = "al") -> Table:
    t = new_table("pathfinder")
    setup(
        t,
        creature(leader, bab=5, hp=30, skills=K(3, 9), **PROFICIENT),
        creature("c2", hp=30, x=1),
        aimed_engine("lc", "catapult_light", square(0, 20), ammunition=ammunition),
        crew("lc", leader, "c2"),
        *more,
    )
    return t


def _structure(sid: str, kind: str, material: str, x: int, y: int, **fields: Any) -> dict[str, Any]:
    return {
        "type": "add_structure",
        "id": sid,
        "kind": kind,
        "material": material,
        "position": at(x, y),
        **fields,
    }


@example("EX-PF-28")
@rule("PF-AMMO-02", "PF-AMMO-01", "PF-AMMO-11", "PF-LOAD-03", "PF-GEN-04")
def test_ex_pf_28_alchemists_fire(new_table: TableFactory) -> None:
    t = _alchemist(
        new_table,
        "alchemists_fire",
        creature("c0", hp=30, saves={"ref": 2}, y=20),
        creature("c20", hp=30, y=24),
        creature("c20b", hp=30, saves={"ref": 1}, x=4, y=20),
        _structure("wg", "gate", "wood", 1, 20, size="L"),
        _structure("iw", "wall", "iron", 0, 21),
    )
    shot = applied(t, fire("lc", {"targeting": [10], "damage": [4, 3, 4, 3], "save": [5, 8, 19]}))
    assert (shot["roll"]["total"], shot["hit"], shot["damage"]["total"]) == (24, True, 14)
    assert [
        (e["entity_id"], e["zone"], e["damage_after_save"], e["hp_after"], e["conditions_added"])
        for e in shot["effects"]
    ] == [
        ("c0", "target", 14, 16, ["on_fire"]),
        ("c20", "outer", 7, 23, []),
        ("c20b", "outer", 0, 30, []),
        ("wg", "inner", 14, 46, ["on_fire"]),
    ]
    assert effect(shot, "wg")["hardness_applied"] == 0
    applied(t, advance())
    assert rejected(t, load("lc", ("c2", 1), ammunition="chain_shot")) == "incompatible_ammunition"


@example("EX-PF-29")
@rule("PF-AMMO-04", "PF-AMMO-03", "PF-AMMO-10", "PF-MISHAP-01", "PF-AMMO-11")
def test_ex_pf_29_liquid_ice_bomb_and_a_bomb_mishap(new_table: TableFactory) -> None:
    ice = _alchemist(
        new_table,
        "liquid_ice",
        creature("i0", hp=30, saves={"fort": 1}, x=1, y=21),
        creature("i25", hp=30, y=25),
        creature("i25b", hp=30, x=5, y=20),
    )
    a = applied(ice, fire("lc", {"targeting": [10], "damage": [3, 3, 3, 3], "save": [10, 3, 20]}))
    assert (a["hit"], a["damage"]["total"]) == (True, 12)
    assert [
        (
            e["entity_id"],
            e["zone"],
            e["save"]["total"],
            e["damage_after_save"],
            e["hp_after"],
            e["conditions_added"],
        )
        for e in a["effects"]
    ] == [
        ("i0", "inner", 11, 12, 18, ["entangled"]),
        ("i25", "outer", 3, 6, 24, []),
        ("i25b", "outer", 20, 0, 30, []),
    ]
    bomb = _alchemist(
        new_table,
        "bomb",
        _structure("sw", "wall", "stone", 0, 22, stat_overrides={"hardness": 8, "hp": 90}),
        _structure("ig", "gate", "iron", 2, 20, size="L"),
        creature("b30", hp=30, y=26),
        creature("b35", hp=30, y=27),
    )
    b = applied(bomb, fire("lc", {"targeting": [10], "damage": [6, 6, 6, 1, 1, 1]}))
    assert b["damage"]["total"] == 21
    assert [(e["entity_id"], e["hardness_applied"], e["hp_loss"], e["hp_after"]) for e in b["effects"]] == [
        ("b30", 0, 21, 9),
        ("sw", 0, 21, 69),
        ("ig", 10, 11, 189),
    ]
    mishap = _alchemist(new_table, "bomb", leader="al2")
    c = applied(mishap, fire("lc", {"targeting": [1], "damage": [2] * 6}))
    assert (c["hit"], c["mishap"], c["explode_before_launch"], c["landing"]) == (
        False,
        True,
        True,
        {"square": at(0, 0), "scatter": None},
    )
    assert c["damage"]["total"] == 12 and c["engine_after"]["broken"] is True
    assert [(e["entity_id"], e["hp_after"]) for e in c["effects"]] == [("al2", 18), ("c2", 18), ("lc", 38)]


@example("EX-PF-30")
@rule("PF-AMMO-07", "PF-AMMO-08", "PF-AMMO-09", "PF-MISFIRE-01", "PF-GEN-08", "PF-DIRECT-02")
def test_ex_pf_30_blast_shot_chain_shot_and_entangling_bolt(new_table: TableFactory) -> None:
    def cannon(ammunition: str, aimed_at: str, *targets: dict[str, Any]) -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            creature("cg", bab=4, dex_mod=2, proficiencies=["firearms"]),
            creature("c2"),
            *targets,
            aimed_engine("cn", "cannon", who(aimed_at), ammunition=ammunition),
            crew("cn", "cg", "c2"),
        )
        return t

    blast_targets = (
        creature("t1", ac=14, hp=40, y=2),
        creature("t2", ac=18, hp=40, x=1, y=4),
        creature("t3", y=7),
    )
    a = cannon("blast_shot", "t1", *blast_targets)
    assert rejected(a, fire("cn", target_ids=["t1", "t3"])) == "target_out_of_area"
    shot = applied(a, fire("cn", {"attack": [10, 5], "damage": [3] * 6}, target_ids=["t1", "t2"]))
    assert (shot["kind"], shot["hit"], shot["misfire"], shot["roll"]) == ("blast_shot", True, False, None)
    t1, t2 = shot["per_target"]
    assert modifier(t1["roll"], "siege_size_penalty") == 0
    assert (t1["roll"]["total"], t1["hit"], t1["damage"]["total"], t1["effects"][0]["hp_after"]) == (
        16,
        True,
        18,
        22,
    )
    assert (t2["roll"]["total"], t2["hit"], t2["damage"]) == (11, False, None)
    a2 = applied(
        cannon("blast_shot", "t1", *blast_targets), fire("cn", {"attack": [1, 9]}, target_ids=["t1", "t2"])
    )
    assert (
        a2["hit"],
        a2["misfire"],
        a2["damage"],
        a2["engine_after"]["broken"],
        a2["engine_after"]["misfire_max"],
    ) == (
        False,
        True,
        None,
        True,
        5,
    )
    chain = applied(
        cannon("chain_shot", "ogre", creature("ogre", ac=15, hp=50, saves={"fort": 4}, y=10)),
        fire("cn", {"attack": [12], "damage": [2] * 6, "save": [10]}),
    )
    ogre = effect(chain, "ogre")
    assert (chain["roll"]["total"], ogre["hp_after"], ogre["save"]["total"], ogre["conditions_added"]) == (
        18,
        38,
        14,
        ["prone"],
    )
    c = new_table("pathfinder")
    setup(
        c,
        creature("eb", bab=3, dex_mod=3, skills=K(1, 1), **PROFICIENT),
        aimed_engine("lb", "ballista_light", ammunition="entangling_bolt"),
        crew("lb", "eb"),
        creature("wolf", touch_ac=12, y=20),
        creature("pixie", size="T", y=10),
        creature("far", y=25),
    )
    assert rejected(c, fire("lb", target=who("pixie"))) == "target_size_invalid"
    assert rejected(c, fire("lb", target=who("far"))) == "out_of_range"
    outcome = c.send(fire("lb", {"attack": [8]}, target=who("wolf")))
    bolt = outcome["result"]
    assert (bolt["roll"]["total"], bolt["roll"]["target_number"], bolt["hit"], bolt["damage"]) == (
        14,
        12,
        True,
        None,
    )
    assert effect(bolt, "wolf")["conditions_added"] == ["entangled"] and effect(bolt, "wolf")["hp_loss"] == 0
    assert [r["slot"] for r in outcome["rolls"]] == ["attack"]


@example("EX-PF-31")
@rule("PF-ENGINE-08", "PF-AIM-01", "PF-AIM-05", "PF-DIRECT-01")
def test_ex_pf_31_bombard_in_direct_fire_mode(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    setup(
        t,
        creature("bg", bab=5, dex_mod=1, skills=K(1, 1), proficiencies=["firearms"]),
        creature("c2"),
        aimed_engine("lb", "bombard_light"),
        crew("lb", "bg", "c2"),
        creature("brute", ac=15, hp=40, y=15),
        creature("near", y=4),
    )
    aimed = applied(t, aim("lb", who("brute"), ("c2", 1)))
    assert aimed["mode"] == "direct" and aimed["aimed"] is True and aimed["aim_progress"] == 1
    assert aimed["range"] == {"distance_ft": 75, "increment_ft": 50, "increments": 2, "penalty": -2}
    shot = applied(t, fire("lb", {"attack": [15], "damage": [1, 2, 3, 4, 5]}))
    assert labels(shot["roll"]) == {"bab": 5, "dex": 1, "range": -2, "bombard_direct": -4}
    assert (
        shot["roll"]["total"],
        shot["hit"],
        shot["damage"]["total"],
        effect(shot, "brute")["hp_after"],
    ) == (
        15,
        True,
        15,
        25,
    )
    applied(t, advance())
    assert rejected(t, aim("lb", square(0, 4))) == "below_minimum_range"
    assert applied(t, aim("lb", who("near")))["range"]["distance_ft"] == 20


@example("EX-PF-32")
@rule("PF-STRUCT-01", "PF-STRUCT-02", "PF-STRUCT-05")
def test_ex_pf_32_buildings(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    sb = applied(t, _structure("sb", "building", "stone", 0, 20, size="H", state={"hp": 240}))
    assert (sb["ac"], sb["hardness"], sb["max_hp"], sb["hp"]) == (3, 8, 450, 240)
    sbm = applied(t, _structure("sbm", "building", "stone", 0, 0, size="H", magic_treated=True))
    assert (sbm["hardness"], sbm["max_hp"], sbm["magic_cost_gp"]) == (16, 900, 10000)
    assert applied(t, _structure("sbf", "building", "stone", 0, 0, size="H", flimsy=True))["max_hp"] == 225
    wb = applied(t, _structure("wb", "building", "wood", 0, 0, size="G"))
    assert (wb["ac"], wb["hardness"], wb["max_hp"]) == (0, 5, 960)
    setup(
        t,
        aimed_engine("hb", "ballista_heavy", {"structure_id": "sb"}),
        creature("ar", bab=5, skills=K(1, 1), **PROFICIENT),
        crew("hb", "ar"),
    )
    shot = applied(t, fire("hb", {"attack": [10], "damage": [8, 8, 6, 1]}))
    hit = effect(shot, "sb")
    assert (shot["roll"]["total"], shot["damage"]["total"], hit["hp_loss"], hit["hp_after"]) == (
        15,
        23,
        15,
        225,
    )
    assert hit["conditions_added"] == ["broken", "breached"]


@example("EX-PF-34")
@rule("PF-STRUCT-04", "PF-STRUCT-05", "PF-STRUCT-06", "PF-INDIRECT-07")
def test_ex_pf_34_wall_squares_collapsing(new_table: TableFactory) -> None:
    t = new_table("pathfinder")

    def wall(sid: str, x: int, below: str | None = None, hp: int | None = None) -> dict[str, Any]:
        command = _structure(sid, "wall", "iron", x, 10, **({"state": {"hp": hp}} if hp is not None else {}))
        return command | ({"stacked_on": below} if below else {})

    setup(
        t,
        wall("a1", 0, hp=10),
        wall("a2", 0, "a1"),
        wall("b1", 1, hp=10),
        wall("b2", 1, "b1", 51),
        wall("c1", 2, hp=10),
        wall("c2", 2, "c1", 2),
        wall("c3", 2, "c2"),
    )
    for column, x in (("A", 0), ("B", 1), ("C", 2)):
        setup(
            t,
            aimed_engine(f"h{column}", "ballista_heavy", {"structure_id": f"{column.lower()}1"}, x=x),
            creature(f"l{column}", bab=5, skills=K(1, 1), **PROFICIENT, x=x),
            crew(f"h{column}", f"l{column}"),
        )
    falls = {}
    for column in "ABC":
        shot = applied(t, fire(f"h{column}", {"attack": [15], "damage": [8, 8, 7, 1]}))
        base = effect(shot, f"{column.lower()}1")
        assert (shot["roll"]["total"], shot["damage"]["total"]) == (20, 24)
        assert (base["hardness_applied"], base["hp_loss"], base["hp_after"]) == (5, 19, -9)
        assert "destroyed" in base["conditions_added"] and "breached" in base["conditions_added"]
        falls[column] = [
            (f["structure_id"], f["hp_before"], f["hp_after"], f["broken"], f["destroyed"])
            for f in shot["collapse"]
        ]
    assert falls == {
        "A": [("a2", 90, 44, True, False)],
        "B": [("b2", 51, 24, True, False)],
        "C": [("c2", 2, 0, True, True), ("c3", 90, 44, True, False)],
    }


@example("EX-PF-35")
@rule("PF-MAGIC-04", "PF-MAGIC-03", "PF-CREW-05", "PF-TIME-03", "PF-DIRECT-05")
def test_ex_pf_35_engine_spells_and_a_crew_change_that_completes_aiming(new_table: TableFactory) -> None:
    def battle(**placed: Any) -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            creature("arc", skills=K(1, 1), **PROFICIENT),
            creature("h1"),
            creature("h2"),
            creature("dummy", hp=40, y=4),
            engine("hb", "ballista_heavy", **placed),
        )
        return t

    def spell(name: str, level: int, rounds: int) -> dict[str, Any]:
        return {
            "type": "cast_engine_spell",
            "engine_id": "hb",
            "spell": name,
            "caster_level": level,
            "duration_rounds": rounds,
        }

    a = battle(state={"loaded": True, "aimed_at": who("dummy")})
    applied(a, crew("hb", "arc", "h1"))
    cast = applied(a, spell("greater_magic_siege_engine", 9, 10))
    assert (cast["spell_bonus"], cast["effective_enhancement"], cast["expires_at_round"]) == (2, 2, 11)
    shot = applied(a, fire("hb", {"attack": [8], "damage": [1, 1, 1, 1]}))
    assert (modifier(shot["roll"], "enhancement"), shot["roll"]["total"], shot["damage"]["total"]) == (
        2,
        10,
        6,
    )
    assert effect(shot, "dummy")["hp_after"] == 34
    later = applied(a, advance(10))
    assert later["round_after"] == 11
    assert later["completed"] == [
        {"round": 11, "kind": "spell_expiry", "entity_id": "hb", "effect": {"effective_enhancement": 0}}
    ]
    b = battle(state={"loaded": True})
    first = applied(b, crew("hb", "arc", "h1"))
    assert (first["crew_status"], first["aim_requirement"]) == ("diminished", 4)
    half = applied(b, aim("hb", who("dummy"), ("arc", 1), ("h1", 1)))
    assert (half["aim_progress"], half["aim_requirement"], half["aimed"]) == (2, 4, False)
    full = applied(b, crew("hb", "arc", "h1", "h2"))
    assert (full["crew_status"], full["aim_requirement"], full["aim_progress"], full["aimed"]) == (
        "full",
        2,
        2,
        True,
    )
    applied(b, advance())
    hit = applied(b, fire("hb", {"attack": [10], "damage": [1, 1, 1, 1]}))
    assert (hit["roll"]["total"], hit["hit"], hit["damage"]["total"], effect(hit, "dummy")["hp_after"]) == (
        10,
        True,
        4,
        36,
    )
    c = battle(masterwork=True, enhancement=1)
    plain = applied(c, spell("magic_siege_engine", 3, 30))
    assert (plain["spell_bonus"], plain["effective_enhancement"]) == (1, 1)


@example("EX-PF-37")
@rule("PF-AMMO-05", "PF-AMMO-06", "PF-AMMO-10", "PF-AMMO-01", "PF-MISHAP-01")
def test_ex_pf_37_plague_bundle_and_smoke_shot(new_table: TableFactory) -> None:
    def battle(ammunition: str) -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            creature("al", bab=5, hp=30, skills=K(3, 9), **PROFICIENT),
            creature("c2", hp=30, x=1),
            aimed_engine("sc", "catapult_standard", square(0, 30), ammunition=ammunition, assembled=True),
            crew("sc", "al", "c2"),
            creature("pb", hp=30, y=30),
            creature("pb2", hp=30, y=31),
        )
        return t

    plague = applied(battle("plague_bundle"), fire("sc", {"targeting": [6], "damage": [6] * 6}))
    assert (plague["roll"]["total"], plague["roll"]["target_number"], plague["hit"]) == (20, 20, True)
    assert (plague["damage"]["total"], plague["damage"]["base"]) == (18, 18)
    assert [(e["entity_id"], e["hp_after"], e["save"], e["conditions_added"]) for e in plague["effects"]] == [
        ("pb", 12, None, ["exposed_filth_fever"]),
    ]
    smoke = applied(battle("smoke_shot"), fire("sc", {"targeting": [6], "damage": [3, 4]}))
    assert [(e["entity_id"], e["hp_after"]) for e in smoke["effects"]] == [("pb", 23)]
    assert smoke["square_conditions"] == [{"square": at(0, 30), "condition": "fog_cloud"}]
    misfired = applied(battle("smoke_shot"), fire("sc", {"targeting": [1], "damage": [2, 2]}))
    assert (misfired["mishap"], misfired["explode_before_launch"], misfired["engine_after"]["broken"]) == (
        True,
        True,
        True,
    )
    assert [(e["entity_id"], e["hp_after"]) for e in misfired["effects"]] == [("al", 26)]
    assert misfired["square_conditions"] == [{"square": at(0, 0), "condition": "fog_cloud"}]


def _assemble(engine_id: str, *workers: str, **fields: Any) -> dict[str, Any]:
    return {"type": "assemble", "engine_id": engine_id, "worker_ids": list(workers), **fields}


@example("EX-PF-18")
@rule("PF-ASSEMBLE-01", "PF-ASSEMBLE-02", "PF-ASSEMBLE-03", "PF-ASSEMBLE-05", "PF-FEAT-04", "PF-TIME-01")
@rule("PF-TIME-03", "PF-TIME-04", "PF-GEN-13")
def test_ex_pf_18_assembly_workers_double_time_siege_commander_failure(new_table: TableFactory) -> None:
    craft = {"craft_siege_engine": skill(1, 2)}

    def yard(catalog_id: str = "catapult_standard") -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            *(creature(f"w{n}", skills=craft) for n in range(1, 13)),
            creature(
                "boss", skills={"craft_siege_engine": skill(5, 7), **K(5, 5)}, feats=["siege_commander"]
            ),
            creature("u1"),
            engine("cat", catalog_id, assembled=False),
        )
        return t

    def workers(n: int) -> list[str]:
        return [f"w{i}" for i in range(1, n + 1)]

    for catalog_id, crew_ids, fields, checks, result, duration in (
        ("catapult_standard", workers(6), {}, [10] * 6, "assembled", 1200),
        ("catapult_standard", workers(3), {}, [10] * 3, "assembled_double_time", 2400),
        ("catapult_standard", ["boss", *workers(5)], {"leader_id": "boss"}, [4] * 6, "assembled", 600),
        (
            "catapult_standard",
            ["boss", "w1", "w2"],
            {"leader_id": "boss"},
            [5] * 3,
            "assembled_double_time",
            1200,
        ),
        ("catapult_standard", workers(6), {}, [10, 10, 1, 1, 1, 1], "failed", 600),
        ("catapult_heavy", workers(8), {}, [10] * 8, "assembled", 2400),
        ("siege_tower_colossal", workers(12), {}, [10] * 12, "assembled", 4800),
        ("catapult_light", workers(4), {}, [10] * 4, "assembled", 600),
    ):
        outcome = applied(
            yard(catalog_id), _assemble("cat", *crew_ids, **fields) | {"dice": {"check": checks}}
        )
        assert (outcome["result"], outcome["duration_rounds"], outcome["completes_at_round"]) == (
            result,
            duration,
            duration + 1,
        ), (catalog_id, crew_ids)
    boss = applied(
        yard(), _assemble("cat", "boss", *workers(5), leader_id="boss") | {"dice": {"check": [4] * 6}}
    )
    assert [c["total"] for c in boss["checks"]] == [15] + [10] * 5
    assert rejected(yard(), _assemble("cat", "w1", "w2")) == "too_few_workers"
    assert rejected(yard(), _assemble("cat", "w1", "w2", "u1", take_10=["u1"])) == "untrained_cannot_take_10"
    t = yard()
    setup(t, engine("cat2", "catapult_standard"))
    first = applied(t, _assemble("cat", *workers(6)) | {"dice": {"check": [10] * 6}})
    assert (first["required_workers"], first["successful_workers"], first["replaced_by_spell"]) == (6, 6, 0)
    assert rejected(t, _assemble("cat2", "w1", "w7", "w8") | {"dice": {"check": [10] * 3}}) == "creature_busy"
    done = applied(t, advance(1200))
    assert done["round_after"] == 1201
    assert done["completed"] == [
        {"round": 1201, "kind": "assembly", "entity_id": "cat", "effect": {"assembled": True}}
    ]
    failed = yard()
    applied(failed, _assemble("cat", *workers(6)) | {"dice": {"check": [10, 10, 1, 1, 1, 1]}})
    assert rejected(failed, _assemble("cat", *workers(12)[6:]) | {"dice": {"check": [10] * 6}}) == (
        "assembly_in_progress"
    )


@example("EX-PF-19")
@rule(
    "PF-DISABLE-01", "PF-DISABLE-03", "PF-REPAIR-03", "PF-REPAIR-04", "PF-TIME-03", "PF-TIME-04", "PF-GEN-13"
)
def test_ex_pf_19_disabling_and_fixing(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    setup(
        t,
        creature("c1", **PROFICIENT),
        creature("c2"),
        creature("rogue", skills={"disable_device": skill(4, 10)}),
        creature("smith", skills=K(2, 9)),
        creature("oaf"),
        aimed_engine("lc", "catapult_light", square(0, 20)),
        crew("lc", "c1", "c2"),
    )
    done = applied(
        t,
        {
            "type": "disable",
            "engine_id": "lc",
            "by": "rogue",
            "mode": "inoperable",
            "dice": {"disable_rounds": [2, 3], "check": [12]},
        },
    )
    assert (
        done["rounds"],
        done["dc"],
        done["check"]["total"],
        done["success"],
        done["effective_at_round"],
    ) == (
        5,
        20,
        22,
        True,
        6,
    )
    later = applied(t, advance(5))
    assert later["round_after"] == 6
    assert [(c["kind"], c["entity_id"], c["effect"]) for c in later["completed"]] == [
        ("disable", "lc", {"disabled": True})
    ]
    assert rejected(t, fire("lc")) == "engine_disabled"
    fix = {"type": "repair", "engine_id": "lc", "kind": "disabled"}
    assert rejected(t, fix | {"by": "oaf", "skill": "disable_device"}) == "untrained_skill"
    smith = fix | {"by": "smith", "skill": "knowledge_engineering"}
    failed = applied(t, smith | {"dice": {"check": [5]}})
    assert (failed["check"]["total"], failed["success"], failed["completes_at_round"]) == (14, False, 106)
    assert rejected(t, smith) == "engine_busy"
    applied(t, advance(100))
    fixed = applied(t, smith | {"dice": {"check": [15]}})
    assert (fixed["check"]["total"], fixed["success"], fixed["completes_at_round"]) == (24, True, 206)
    finished = applied(t, advance(100))
    assert [(c["kind"], c["entity_id"]) for c in finished["completed"]] == [("repair", "lc")]
    assert rejected(t, load("lc", ("c2", 1))) == "already_loaded"  # the engine checks pass again


@example("EX-PF-20")
@rule("PF-DISABLE-01", "PF-DISABLE-02", "PF-DISABLE-03", "PF-TIME-03")
def test_ex_pf_20_sabotage_fails_minutes_after_the_next_use(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    setup(
        t,
        creature("a1", **PROFICIENT),
        creature("rogue", skills={"disable_device": skill(4, 10)}),
        creature("dummy", hp=30, y=4),
        aimed_engine("lb", "ballista_light"),
        crew("lb", "a1"),
    )
    plot = applied(
        t,
        {
            "type": "disable",
            "engine_id": "lb",
            "by": "rogue",
            "mode": "sabotage",
            "dice": {"disable_rounds": [1, 1], "check": [10]},
        },
    )
    assert (plot["check"]["total"], plot["success"], plot["effective_at_round"], plot["mode"]) == (
        20,
        True,
        3,
        "sabotage",
    )
    assert applied(t, advance(2))["completed"][0]["effect"] == {"sabotaged": True}
    shot = applied(
        t, fire("lb", {"attack": [15], "damage": [2, 2, 2], "sabotage_minutes": [2]}, target=who("dummy"))
    )
    assert (
        shot["roll"]["total"],
        shot["hit"],
        shot["damage"]["total"],
        effect(shot, "dummy")["hp_after"],
    ) == (
        13,
        True,
        6,
        24,
    )
    assert shot["sabotage"] == {"minutes": 2, "disabled_at_round": 23}
    failure = applied(t, advance(20))
    assert [(c["round"], c["kind"], c["entity_id"]) for c in failure["completed"]] == [
        (23, "sabotage_failure", "lb")
    ]
    assert rejected(t, load("lb", ("a1", 1))) == "engine_disabled"


@example("EX-PF-36")
@rule("PF-MOVE-02", "PF-MOVE-05", "PF-ENGINE-07", "PF-MOVE-06", "PF-ASSEMBLE-05")
def test_ex_pf_36_engines_that_cannot_move_on_their_own(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    setup(
        t,
        *(creature(c) for c in ("c1", "c2", "c3")),
        engine("cs", "catapult_standard", assembled=True, state={"aimed_at": square(0, 40)}),
        crew("cs", "c1", "c2", "c3"),
        engine("tr", "trebuchet_light"),
        engine("bh", "bombard_heavy"),
        engine("cs2", "catapult_standard"),
    )

    def move(eid: str, x: int, y: int, **fields: Any) -> dict[str, Any]:
        return {"type": "move_engine", "engine_id": eid, "to": at(x, y), **fields}

    assert rejected(t, move("cs", 0, 1)) == "immobile"
    carried = applied(t, move("cs", 0, 40, carried=True))
    assert (carried["distance_ft"], carried["aim_reset"], carried["speed_ft"]) == (200, True, None)
    assert rejected(t, move("tr", 0, 40, carried=True)) == "cannot_be_carried"
    assert rejected(t, move("bh", 0, 40, carried=True)) == "cannot_be_carried"
    cargo = applied(t, move("cs2", 50, 50))
    assert (cargo["to"], cargo["speed_ft"]) == (at(50, 50), None)
    assert applied(t, move("tr", 0, 20))["to"] == at(0, 20)


def _ram_yard(new_table: TableFactory, gate: dict[str, Any], helpers: int = 9, **ram: Any) -> Table:
    t = new_table("pathfinder")
    ids = [f"r{n}" for n in range(1, helpers + 1)]
    setup(
        t,
        engine("ram", "ram_huge", **ram),
        creature("brute", str_mod=3),
        *(creature(r) for r in ids),
        crew("ram", "brute", *ids),
        {"type": "add_structure", "id": "g", "kind": "gate", "position": at(0, 1), **gate},
    )
    return t


@example("EX-PF-21")
@rule("PF-STRUCT-07", "PF-STRUCT-03", "PF-STRUCT-05", "PF-ASSAULT-03", "PF-ASSAULT-04", "PF-CREW-02")
def test_ex_pf_21_ram_breaking_gates(new_table: TableFactory) -> None:
    wood = {"material": "wood", "size": "L"}

    def ram_break(t: Table, roll: int, **fields: Any) -> dict[str, Any]:
        return applied(
            t,
            {
                "type": "break",
                "structure_id": "g",
                "engine_id": "ram",
                "charging": True,
                **fields,
                "dice": {"check": [roll]},
            },
        )

    t = _ram_yard(new_table, wood)
    result = ram_break(t, 4)
    assert labels(result["check"]) == {"str": 3, "ram_base": 2, "ram_assist": 18, "ram_size": 8}
    assert (result["dc"], result["check"]["total"], result["success"], result["sabotage"]) == (
        35,
        35,
        True,
        None,
    )
    assert result["structure_after"] == {"broken": True, "breached": True, "hardness": 2}
    assert rejected(t, {"type": "break", "structure_id": "g", "engine_id": "ram"}) == "action_unavailable"
    for gate, ram, fields, roll, modifier_total, dc, success in (
        ({"material": "wood", "size": "H"}, {}, {}, 4, 31, 40, False),
        ({"material": "wood", "size": "H", "arcane_lock": True}, {}, {}, 4, 31, 50, False),
        (wood, {}, {"charging": False}, 8, 27, 35, True),
        (wood, {"improvised": True}, {}, 8, 27, 35, True),
        ({"material": "stone", "size": "L"}, {"ram_head": "pick"}, {}, 5, 33, 38, True),
    ):
        outcome = ram_break(_ram_yard(new_table, gate, **ram), roll, **fields)
        assert (outcome["check"]["total"] - roll, outcome["dc"], outcome["success"]) == (
            modifier_total,
            dc,
            success,
        )
    crowded = ram_break(_ram_yard(new_table, wood, helpers=11), 4)
    assert (modifier(crowded["check"], "ram_assist"), crowded["check"]["total"], crowded["success"]) == (
        18,
        35,
        True,
    )


@example("EX-PF-22")
@rule(
    "PF-ASSAULT-01", "PF-ASSAULT-02", "PF-ASSAULT-03", "PF-CRIT-01", "PF-CRIT-03", "PF-MISHAP-01", "PF-GEN-08"
)
@rule("PF-STRUCT-05")
def test_ex_pf_22_ram_attacks_and_damage(new_table: TableFactory) -> None:
    def yard(lead: dict[str, Any] | None = None, options: dict[str, Any] | None = None) -> Table:
        t = new_table("pathfinder", options)
        setup(
            t,
            engine("lr", "ram_large"),
            creature("lead", bab=3, str_mod=2, **(lead or {})),
            *(creature(f"k{n}", str_mod=2) for n in range(1, 5)),
            crew("lr", "lead", "k1", "k2", "k3", "k4"),
            {
                "type": "add_structure",
                "id": "lg",
                "kind": "gate",
                "material": "wood",
                "size": "L",
                "position": at(0, 1),
            },
        )
        return t

    def ram(t: Table, dice: dict[str, Any], charging: bool = True) -> dict[str, Any]:
        return applied(
            t,
            {
                "type": "ram",
                "engine_id": "lr",
                "target": {"structure_id": "lg"},
                "charging": charging,
                "dice": dice,
            },
        )

    t = yard()
    first = ram(t, {"attack": [10], "damage": [3, 4]})
    assert labels(first["roll"]) == {"bab": 3, "str": 2, "nonproficient": -4}
    assert (first["kind"], first["mode"], first["roll"]["total"], first["hit"]) == ("ram", "direct", 11, True)
    assert (first["damage"]["total"], effect(first, "lg")["hp_loss"], effect(first, "lg")["hp_after"]) == (
        17,
        12,
        48,
    )
    applied(t, advance())
    second = ram(t, {"attack": [10], "damage": [3, 4]}, charging=False)
    assert (modifier(second["roll"], "not_charging"), second["roll"]["total"], second["damage"]["total"]) == (
        -4,
        7,
        13,
    )
    assert effect(second, "lg")["hp_after"] == 40
    assert ram(yard(PROFICIENT), {"attack": [10], "damage": [3, 4]})["roll"]["total"] == 15
    forced = yard(PROFICIENT, {"ram_always_nonproficient": True})
    assert ram(forced, {"attack": [10], "damage": [3, 4]})["roll"]["total"] == 11
    crit = ram(yard(), {"attack": [20], "confirm": [5], "damage": [1, 2, 3, 4, 5, 6]})
    assert (
        crit["threat"],
        crit["confirm"]["total"],
        crit["critical_multiplier"],
        crit["damage"]["total"],
    ) == (
        True,
        6,
        3,
        51,
    )
    assert (effect(crit, "lg")["hp_loss"], effect(crit, "lg")["hp_after"]) == (46, 14)
    assert effect(crit, "lg")["conditions_added"] == ["broken", "breached"]
    fumble = ram(yard(), {"attack": [1]})
    assert (fumble["hit"], fumble["mishap"], fumble["engine_after"]["broken"]) == (False, True, True)


@example("EX-PF-25")
@rule("PF-ASSAULT-06", "PF-ASSAULT-07", "PF-GEN-13", "PF-GEN-09")
def test_ex_pf_25_corvus_dropping_resetting_dislodging(new_table: TableFactory) -> None:
    def deployed() -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            engine("cv", "corvus"),
            creature("sailor", skills={"profession_siege_engineer": skill(1, 3)}),
            crew("cv", "sailor"),
            *(creature(o, saves={"ref": 1}) for o in ("o1", "o2", "o3")),
            creature("def1", str_mod=4),
            creature("drv"),
        )
        failed = applied(
            t, {"type": "use_corvus", "engine_id": "cv", "action": "drop", "dice": {"check": [6]}}
        )
        assert (failed["check"]["total"], failed["success"], failed["deployed"], failed["needs_reset"]) == (
            9,
            False,
            False,
            True,
        )
        assert (
            rejected(t, {"type": "use_corvus", "engine_id": "cv", "action": "drop"}) == "corvus_needs_reset"
        )
        applied(t, advance())
        reset = applied(t, {"type": "use_corvus", "engine_id": "cv", "action": "reset"})
        assert (reset["check"], reset["success"], reset["needs_reset"]) == (None, None, False)
        applied(t, advance())
        dropped = applied(
            t, {"type": "use_corvus", "engine_id": "cv", "action": "drop", "dice": {"check": [7]}}
        )
        assert (dropped["check"]["total"], dropped["deployed"]) == (10, True)
        return t

    dislodge = {"type": "dislodge_corvus", "engine_id": "cv", "occupant_ids": ["o1", "o2", "o3"]}
    t = deployed()
    heave = applied(t, dislodge | {"by": "def1", "method": "strength", "dice": {"check": [20]}})
    assert (heave["dc"], heave["check"]["total"], heave["success"], heave["occupants"]) == (30, 24, False, [])
    applied(t, advance())
    drive = applied(
        t,
        dislodge
        | {
            "by": "drv",
            "method": "driving",
            "driving_modifier": 12,
            "dice": {"check": [18], "save": [14, 15, 3]},
        },
    )
    assert (drive["check"]["total"], drive["success"], drive["margin"], drive["corvus_destroyed"]) == (
        30,
        True,
        0,
        False,
    )
    assert [(o["id"], o["save"]["total"], o["fell"]) for o in drive["occupants"]] == [
        ("o1", 15, False),
        ("o2", 16, False),
        ("o3", 4, True),
    ]
    b = deployed()
    smash = applied(
        b,
        dislodge
        | {
            "by": "drv",
            "method": "driving",
            "driving_modifier": 15,
            "dice": {"check": [20], "save": [10, 10, 10]},
        },
    )
    assert (smash["check"]["total"], smash["margin"], smash["corvus_destroyed"]) == (35, 5, True)
    assert [o["fell"] for o in smash["occupants"]] == [True, True, True]


@example("EX-PF-33")
@rule("PF-STRUCT-03", "PF-STRUCT-08", "PF-STRUCT-01")
def test_ex_pf_33_gates_statistics_and_opening(new_table: TableFactory) -> None:
    t = new_table("pathfinder")
    setup(t, *(creature(f"p{n}") for n in range(1, 7)))

    def gate(gid: str, material: str, size: str, **fields: Any) -> dict[str, Any]:
        return applied(t, _structure(gid, "gate", material, 0, 0, size=size, **fields))

    lwg = gate("lwg", "wood", "L")
    assert (lwg["ac"], lwg["hardness"], lwg["max_hp"], lwg["break_dc"]) == (4, 5, 60, 35)
    hsg = gate("hsg", "stone", "H")
    assert (hsg["ac"], hsg["hardness"], hsg["max_hp"], hsg["break_dc"]) == (3, 8, 225, 43)
    hsgm = gate("hsgm", "stone", "H", magic_treated=True)
    assert (hsgm["hardness"], hsgm["max_hp"], hsgm["magic_cost_gp"]) == (16, 450, 4000)
    lig = gate("lig", "iron", "L")
    assert (lig["break_dc"], lig["break_dc_suspect"]) == (24, True)
    gwg = gate("gwg", "wood", "G")
    assert (gwg["ac"], gwg["max_hp"], gwg["break_dc"]) == (0, 240, 45)

    def operate(gid: str, *who: str) -> dict[str, Any]:
        return {"type": "operate_gate", "structure_id": gid, "contributors": list(who)}

    opened = applied(t, operate("lwg", "p1", "p2", "p3"))
    assert (opened["progress"], opened["requirement"], opened["toggled"], opened["open"]) == (
        3,
        3,
        True,
        True,
    )
    assert rejected(t, operate("hsg", "p1", "p2", "p3", "p4")) == "too_many_contributors"
    slow = applied(t, operate("hsg", "p4", "p5", "p6"))
    assert (slow["progress"], slow["requirement"], slow["toggled"]) == (3, 30, False)
    for _ in range(9):
        applied(t, advance())
        last = applied(t, operate("hsg", "p4", "p5", "p6"))
    assert (last["progress"], last["toggled"], last["open"], last["round"]) == (30, True, True, 10)


@example("EX-PF-38")
@rule("PF-ASSAULT-05", "PF-TIME-02")
def test_ex_pf_38_raising_an_assault_bridge(new_table: TableFactory) -> None:
    def site() -> Table:
        t = new_table("pathfinder")
        setup(
            t,
            engine("br", "bridge_assault_huge"),
            *(creature(f"m{n}") for n in range(1, 6)),
            creature("hh", size="H"),
            creature("gg", size="G"),
        )
        return t

    def raise_(t: Table, *who: str) -> dict[str, Any]:
        return {"type": "raise_bridge", "engine_id": "br", "contributors": list(who)}

    a = site()
    first = applied(a, raise_(a, "m1", "m2", "m3", "m4"))
    assert (first["units_added"], first["progress"], first["requirement"], first["raised"]) == (
        1,
        1,
        6,
        False,
    )
    assert rejected(a, raise_(a, "m5")) == "too_many_contributors"
    for _ in range(5):
        applied(a, advance())
        last = applied(a, raise_(a, "m1", "m2", "m3", "m4"))
    assert (last["progress"], last["raised"], last["round"]) == (6, True, 6)
    assert rejected(a, raise_(a, "m5")) == "bridge_already_raised"
    b = site()
    for _ in range(3):
        step = applied(b, raise_(b, "hh", "gg"))
        assert step["units_added"] == 2
        if not step["raised"]:
            applied(b, advance())
    assert (step["progress"], step["raised"], step["round"]) == (6, True, 3)
