"""Ram attacks (§3.17, PF-ASSAULT-01..04): the roll, damage, criticals, mishaps, actions and
refusals, and the cover a siege tower or gallery gives against it (PF-ASSAULT-08/10)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    PROFICIENT,
    advance,
    applied,
    creature,
    crew,
    effect,
    engine,
    find,
    labels,
    rejected,
    setup,
    who,
)

rule = pytest.mark.rule
CREW = ("k1", "k2", "k3", "k4")


def structure(sid: str, kind: str = "gate", material: str = "wood", **fields: Any) -> dict[str, Any]:
    position = fields.pop("position", {"x": 0, "y": 1})
    return {
        "type": "add_structure",
        "id": sid,
        "kind": kind,
        "material": material,
        "position": position,
        **fields,
    }


def gate(**fields: Any) -> dict[str, Any]:
    """The wooden Large gate of EX-PF-22: ac 4, hardness 5, hp 60."""
    return structure("lg", size="L", **fields)


def ram(
    target: dict[str, Any] | None = None, dice: dict[str, Any] | None = None, **fields: Any
) -> dict[str, Any]:
    return {
        "type": "ram",
        "engine_id": "lr",
        "target": target or {"structure_id": "lg"},
        **fields,
        "dice": dice or {},
    }


def rams(
    rules_table: TableFactory,
    *more: dict[str, Any],
    options: dict[str, Any] | None = None,
    leader: dict[str, Any] | None = None,
    **placed: Any,
) -> Table:
    """EX-PF-22: ram_large `lr`, leader `lead` (bab +3, str +2) and k1…k4 (str +2), the gate `lg`."""
    t = rules_table("pathfinder", options)
    setup(
        t,
        engine("lr", "ram_large", **placed),
        creature("lead", **{"bab": 3, "str_mod": 2, **(leader or {})}),
        *(creature(k, str_mod=2) for k in CREW),
        crew("lr", "lead", *CREW),
        gate(),
        *more,
    )
    return t


@rule("PF-ASSAULT-01", "PF-ASSAULT-02", "PF-GEN-08", "PF-GEN-10", "PF-STRUCT-05")
def test_a_charging_nonproficient_leader_hits_the_gate_with_the_crews_strength(
    rules_table: TableFactory,
) -> None:
    result = applied(rams(rules_table), ram(dice={"attack": [10], "damage": [3, 4]}))
    assert result == {
        "kind": "ram",
        "mode": "direct",
        "roll": {
            "slot": "attack",
            "natural": 10,
            "modifiers": [
                {"label": "bab", "value": 3},
                {"label": "str", "value": 2},
                {"label": "nonproficient", "value": -4},
            ],
            "total": 11,
            "target_number": 4,
            "success": True,
        },
        "threat": False,
        "confirm": None,
        "critical_multiplier": 1,
        "hit": True,
        "mishap": False,
        "misfire": False,
        "exploded": False,
        "explode_before_launch": False,
        "landing": None,
        "damage": {"dice": [3, 4], "static": 10, "total": 17, "base": 17},
        "effects": [
            {
                "entity_kind": "structure",
                "entity_id": "lg",
                "distance_ft": 5,
                "zone": "target",
                "damage_in": 17,
                "save": None,
                "damage_after_save": 17,
                "hardness_applied": 5,
                "hp_loss": 12,
                "hp_before": 60,
                "hp_after": 48,
                "conditions_added": [],
                "cave_in": False,
            }
        ],
        "per_target": None,
        "collapse": [],
        "square_conditions": [],
        "engine_after": {
            "loaded": False,
            "broken": False,
            "misfire_max": None,
            "destroyed": False,
            "successive": {"seen_misses": 0, "unseen_misses": 0, "reported_misses": 0, "hit": False},
        },
        "sabotage": None,
        "round": 1,
        "unused_dice": [],
    }


@rule("PF-ASSAULT-01", "PF-ASSAULT-02", "PF-ASSAULT-03")
def test_without_a_charge_both_the_roll_and_the_damage_take_minus_four(rules_table: TableFactory) -> None:
    t = rams(rules_table)
    applied(t, ram(dice={"attack": [10], "damage": [3, 4]}))
    applied(t, advance())
    second = applied(t, ram(charging=False, dice={"attack": [10], "damage": [3, 4]}))
    assert labels(second["roll"])["not_charging"] == -4
    assert (second["roll"]["total"], second["hit"], second["damage"]["total"]) == (7, True, 13)
    assert (effect(second, "lg")["hp_loss"], effect(second, "lg")["hp_after"]) == (8, 40)


@rule("PF-GEN-08", "PF-ASSAULT-01")
def test_proficiency_removes_the_penalty_unless_the_option_keeps_it(rules_table: TableFactory) -> None:
    proficient = applied(rams(rules_table, leader=PROFICIENT), ram(dice={"attack": [10], "damage": [3, 4]}))
    assert (proficient["roll"]["total"], "nonproficient" in labels(proficient["roll"])) == (15, False)
    house = rams(rules_table, leader=PROFICIENT, options={"ram_always_nonproficient": True})
    always = applied(house, ram(dice={"attack": [10], "damage": [3, 4]}))
    assert (always["roll"]["total"], labels(always["roll"])["nonproficient"]) == (11, -4)


@rule("PF-CRIT-01", "PF-CRIT-03", "PF-ASSAULT-02", "PF-STRUCT-05")
def test_a_confirmed_twenty_triples_dice_and_strength(rules_table: TableFactory) -> None:
    t = rams(rules_table)
    result = applied(t, ram(dice={"attack": [20], "confirm": [5], "damage": [1, 2, 3, 4, 5, 6]}))
    assert (result["threat"], result["confirm"]["total"], result["confirm"]["success"]) == (True, 6, True)
    assert result["critical_multiplier"] == 3
    assert result["damage"] == {"dice": [1, 2, 3, 4, 5, 6], "static": 10, "total": 51, "base": 13}
    lg = effect(result, "lg")
    assert (lg["hp_loss"], lg["hp_after"], lg["conditions_added"]) == (46, 14, ["broken", "breached"])
    state = find(t.state(), "structures", "lg")
    assert (state["broken"], state["breached"]) == (True, True)


@rule("PF-CRIT-01")
def test_an_unconfirmed_threat_rolls_the_dice_once(rules_table: TableFactory) -> None:
    result = applied(rams(rules_table), ram(dice={"attack": [20], "confirm": [1], "damage": [6, 6]}))
    assert (result["threat"], result["confirm"]["success"], result["critical_multiplier"]) == (True, False, 1)
    assert result["damage"]["total"] == 22


@rule("PF-MISHAP-01", "PF-MISHAP-02", "PF-GEN-07")
def test_a_natural_one_misses_and_breaks_the_ram(rules_table: TableFactory) -> None:
    t = rams(rules_table, leader={"bab": 30})
    result = applied(t, ram(dice={"attack": [1]}))
    assert (result["roll"]["total"], result["hit"], result["mishap"]) == (29, False, True)
    assert (result["damage"], result["effects"], result["engine_after"]["broken"]) == (None, [], True)
    assert find(t.state(), "engines", "lr")["broken_by_mishap"] is True


@rule("PF-MISHAP-01", "PF-FEAT-02")
def test_a_siege_engineer_leader_suffers_no_mishap(rules_table: TableFactory) -> None:
    engineer = {"bonus_feats": ["siege_engineer"]}
    result = applied(rams(rules_table, leader=engineer), ram(dice={"attack": [1]}))
    assert (result["hit"], result["mishap"], result["engine_after"]["broken"]) == (False, False, False)


@rule("PF-DEF-05", "PF-ASSAULT-01", "PF-ASSAULT-02", "PF-MISHAP-02")
def test_a_broken_ram_takes_minus_two_on_the_roll_and_the_damage(rules_table: TableFactory) -> None:
    t = rams(rules_table, state={"broken": True})
    result = applied(t, ram(dice={"attack": [10], "damage": [3, 4]}))
    assert (labels(result["roll"])["broken"], result["roll"]["total"], result["damage"]["static"]) == (
        -2,
        9,
        8,
    )
    mishap = rams(rules_table, state={"broken": True})
    again = mishap.send(ram(dice={"attack": [1]}))
    assert again["result"]["mishap"] is True
    assert not [c for c in again["changes"] if c["event"] == "EngineBrokenByMishap"]


@rule("PF-ASSAULT-04", "PF-ASSAULT-01", "PF-ASSAULT-02", "PF-DEF-03")
def test_an_improvised_ram_has_half_hp_and_minus_four(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    assert applied(t, engine("lr", "ram_large", improvised=True))["max_hp"] == 15
    setup(
        t,
        creature("lead", bab=3, str_mod=2),
        *(creature(k, str_mod=2) for k in CREW),
        crew("lr", "lead", *CREW),
        gate(),
    )
    result = applied(t, ram(dice={"attack": [10], "damage": [3, 4]}))
    assert labels(result["roll"]) == {"bab": 3, "str": 2, "nonproficient": -4, "improvised": -4}
    assert (result["roll"]["total"], result["damage"]["static"], result["damage"]["total"]) == (7, 6, 13)


@rule("PF-ASSAULT-04")
def test_a_gallery_ram_never_takes_the_not_charging_penalty(rules_table: TableFactory) -> None:
    result = applied(
        rams(rules_table, gallery_ram=True), ram(charging=False, dice={"attack": [10], "damage": [3, 4]})
    )
    assert (
        "not_charging" in labels(result["roll"]),
        result["roll"]["total"],
        result["damage"]["static"],
    ) == (
        False,
        11,
        10,
    )


@rule("PF-ASSAULT-01", "PF-ASSAULT-02")
@pytest.mark.parametrize(
    ("head", "material", "bonus"),
    [
        ("pick", "stone", 2),
        ("screw", "earth", 2),
        ("pick", "wood", 0),
        ("screw", "stone", 0),
        ("none", "stone", 0),
    ],
)
def test_a_ram_head_adds_two_against_its_material(
    rules_table: TableFactory, head: str, material: str, bonus: int
) -> None:
    wall = structure("w", "wall", material, stat_overrides={"hardness": 0, "hp": 100})
    t = rams(rules_table, wall, ram_head=head)
    result = applied(t, ram({"structure_id": "w"}, {"attack": [10], "damage": [3, 4]}))
    assert (labels(result["roll"]).get("ram_head", 0), result["roll"]["total"]) == (bonus, 11 + bonus)
    assert (result["damage"]["static"], effect(result, "w")["hp_loss"]) == (10 + bonus, 17 + bonus)


@rule("PF-ASSAULT-01")
def test_a_ram_head_does_nothing_against_creatures(rules_table: TableFactory) -> None:
    t = rams(rules_table, creature("foe", y=1, ac=12, hp=40), ram_head="pick")
    result = applied(t, ram(who("foe"), {"attack": [11], "damage": [3, 4]}))
    assert labels(result["roll"]) == {"bab": 3, "str": 2, "nonproficient": -4}
    foe = effect(result, "foe")
    assert (result["roll"]["target_number"], foe["hardness_applied"], foe["hp_loss"], foe["hp_after"]) == (
        12,
        0,
        17,
        23,
    )


@rule("PF-ASSAULT-01", "PF-MAGIC-03", "PF-GEN-03")
def test_enhancement_and_a_large_leader_change_the_roll(rules_table: TableFactory) -> None:
    t = rams(rules_table, masterwork=True, enhancement=1, leader={"size": "L"})
    result = applied(t, ram(dice={"attack": [10], "damage": [3, 4]}))
    assert labels(result["roll"]) == {
        "bab": 3,
        "str": 2,
        "attacker_size": -1,
        "enhancement": 1,
        "nonproficient": -4,
    }
    assert (result["roll"]["total"], result["damage"]["static"]) == (11, 11)


@rule("PF-GEN-12", "PF-ASSAULT-01")
def test_wind_does_not_touch_a_ram(rules_table: TableFactory) -> None:
    t = rams(rules_table, {"type": "set_wind", "level": "tornado"})
    result = applied(t, ram(dice={"attack": [10], "damage": [3, 4]}))
    assert ("wind" in labels(result["roll"]), result["roll"]["total"]) == (False, 11)


@rule("PF-ASSAULT-01", "PF-DIRECT-04")
def test_cover_inside_a_gallery_raises_the_targets_ac(rules_table: TableFactory) -> None:
    t = rams(
        rules_table,
        engine("gal", "gallery_large", y=1),
        creature("big", size="L", ac=12, y=1, inside={"engine_id": "gal"}),
    )
    result = applied(t, ram(who("big"), {"attack": [10]}))
    assert (result["roll"]["target_number"], result["hit"]) == (16, False)
    assert result["unused_dice"] == []


@rule("PF-ASSAULT-03", "PF-TIME-02")
def test_every_crew_member_spends_a_full_round_action(rules_table: TableFactory) -> None:
    t = rams(rules_table)
    applied(t, ram(dice={"attack": [2]}))
    for cid in ("lead", *CREW):
        assert find(t.state(), "creatures", cid)["actions"] == {"standard": False, "move": False}
    assert rejected(t, ram(dice={"attack": [10]})) == "action_unavailable"


@rule("PF-ASSAULT-03")
def test_one_crew_member_without_its_full_round_blocks_the_ram(rules_table: TableFactory) -> None:
    t = rams(rules_table)
    # k3 spends its standard action trying the gate alone (PF-STRUCT-07)
    applied(t, {"type": "break", "structure_id": "lg", "by": "k3", "dice": {"check": [1]}})
    assert rejected(t, ram(dice={"attack": [10]})) == "action_unavailable"


@rule("PF-CREW-06", "PF-CREW-04", "PF-CREW-03", "PF-ASSAULT-02")
def test_small_creatures_crew_a_ram_at_half_a_member_each(rules_table: TableFactory) -> None:
    def small_crew(n: int) -> Table:
        t = rules_table("pathfinder")
        ids = [f"s{i}" for i in range(n)]
        setup(
            t,
            engine("lr", "ram_large"),
            *(creature(s, size="S", str_mod=1) for s in ids),
            crew("lr", *ids),
            gate(),
        )
        return t

    full = applied(small_crew(10), ram(dice={"attack": [10], "damage": [1, 1]}))
    # leader: bab 0, str +1, Small +1, nonproficient −4; S = ten Small members at +1
    assert (full["roll"]["total"], full["damage"]["static"]) == (8, 10)
    assert applied(small_crew(9), ram(dice={"attack": [10], "damage": [1, 1]}))["hit"] is True  # diminished
    assert rejected(small_crew(1), ram(dice={"attack": [10]})) == "crew_insufficient"


@rule("PF-DISABLE-02", "PF-ASSAULT-01")
def test_a_sabotaged_ram_draws_its_minutes_last(rules_table: TableFactory) -> None:
    t = rams(rules_table, creature("rogue", skills={"disable_device": {"ranks": 4, "modifier": 10}}))
    applied(
        t,
        {
            "type": "disable",
            "engine_id": "lr",
            "by": "rogue",
            "mode": "sabotage",
            "dice": {"disable_rounds": [1, 1], "check": [10]},
        },
    )
    applied(t, advance(2))
    outcome = t.send(ram(dice={"attack": [10], "damage": [3, 4], "sabotage_minutes": [2]}))
    assert outcome["result"]["sabotage"] == {"minutes": 2, "disabled_at_round": 23}
    assert [r["slot"] for r in outcome["rolls"]] == ["attack", "damage", "damage", "sabotage_minutes"]


@rule("PF-GEN-06", "PF-ASSAULT-02")
def test_ram_dice_are_counted_and_faced_by_the_catalog_die(rules_table: TableFactory) -> None:
    t = rams(rules_table)
    assert rejected(t, ram(dice={"attack": [10], "damage": [3, 4, 5]})) == "dice_count_mismatch"
    assert rejected(t, ram(dice={"attack": [10], "damage": [3, 7]})) == "dice_value_out_of_range"
    missed = applied(t, ram(dice={"attack": [2], "damage": [3, 4]}))
    assert (missed["hit"], missed["unused_dice"]) == (False, ["damage"])


# --- refusals, in §3.17 order -------------------------------------------------------------------------


@rule("PF-ASSAULT-01")
def test_a_square_or_the_ram_itself_is_not_a_ram_target(rules_table: TableFactory) -> None:
    t = rams(rules_table)
    assert rejected(t, ram({"square": {"x": 0, "y": 1}})) == "invalid_field"
    assert rejected(t, ram({"engine_id": "lr"})) == "invalid_field"


@rule("PF-DEF-06", "PF-DISABLE-03", "PF-CREW-03")
def test_engine_checks_come_first(rules_table: TableFactory) -> None:
    gone = rules_table("pathfinder")
    setup(gone, engine("lr", "ram_large", state={"hp": 0}), gate())
    assert rejected(gone, ram()) == "engine_destroyed"
    bare = rules_table("pathfinder")
    setup(bare, engine("lr", "ram_large"), gate())
    assert rejected(bare, ram()) == "no_crew"


@rule("PF-ASSAULT-01")
def test_only_a_ram_rams(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(t, engine("lr", "ballista_light"), creature("lead"), crew("lr", "lead"), gate())
    assert rejected(t, ram()) == "not_a_ram"


@rule("PF-DEF-06", "PF-STRUCT-05")
def test_a_destroyed_target_cannot_be_rammed(rules_table: TableFactory) -> None:
    t = rams(
        rules_table,
        structure("dead", "gate", size="L", state={"hp": 0}),
        engine("wreck", "ballista_light", state={"hp": 0}),
    )
    assert rejected(t, ram({"structure_id": "dead"})) == "target_destroyed"
    assert rejected(t, ram({"engine_id": "wreck"})) == "target_destroyed"


@rule("PF-DIRECT-04", "PF-ASSAULT-10")
def test_total_cover_refuses_the_ram_before_the_actor_checks(rules_table: TableFactory) -> None:
    t = rams(
        rules_table,
        engine("st", "siege_tower_large", y=1),
        creature("hidden", y=1, inside={"engine_id": "st", "level": "lower"}),
    )
    applied(t, ram(dice={"attack": [2]}))
    assert rejected(t, ram(who("hidden"))) == "target_has_total_cover"
    assert rejected(t, ram()) == "action_unavailable"


@rule("PF-GEN-10")
def test_a_down_crew_member_cannot_charge(rules_table: TableFactory) -> None:
    t = rams(rules_table)
    # the crew runs down one of its own (hp 10, 17 damage) …
    applied(t, ram(who("k4"), {"attack": [10], "damage": [3, 4]}))
    applied(t, advance())
    # … and can no longer charge with it
    assert rejected(t, ram(dice={"attack": [10]})) == "creature_down"


@rule("PF-STRUCT-01", "PF-STRUCT-04", "PF-STRUCT-05", "PF-STRUCT-06", "PF-ASSAULT-02")
def test_a_rammed_wall_square_lets_the_one_above_fall(rules_table: TableFactory) -> None:
    t = rams(
        rules_table,
        structure("w1", "wall", "iron", state={"hp": 10}),
        structure("w2", "wall", "iron", stacked_on="w1"),
    )
    result = applied(t, ram({"structure_id": "w1"}, {"attack": [10], "damage": [6, 6]}))
    # 11 vs a wall square's ac 5; w1 starts broken (10 ≤ 45): hardness 5, 22 damage → hp −7
    w1 = effect(result, "w1")
    assert (result["roll"]["target_number"], w1["hardness_applied"], w1["hp_after"]) == (5, 5, -7)
    assert w1["conditions_added"] == ["breached", "destroyed"]
    assert result["collapse"] == [
        {"structure_id": "w2", "hp_before": 90, "hp_after": 44, "broken": True, "destroyed": False}
    ]
    assert find(t.state(), "structures", "w2")["stacked_on"] is None


RAMMERS = ("lead", "k1", "k2", "k3", "k4")


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


@rule("PF-ASSAULT-10", "PF-DEF-06", "PF-GEN-11", "PF-ASSAULT-01", "PF-CREW-01")
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
    # PF-CREW-01: only the destroyed engine's crew is released; the ram's crew still crews it
    assert [find(state, "creatures", c)["crewing"] for c in RAMMERS] == ["lr"] * len(RAMMERS)


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


@rule("PF-GEN-06")
def test_a_ram_s_damage_die_is_its_d6_and_it_draws_no_explosion_die(rules_table: TableFactory) -> None:
    """§4: `damage` is the ram's 2d6; `explosion_damage` is drawn by `fire` alone, so a ram ignores it."""
    t = rams(rules_table)
    outcome = t.send(ram(dice={"attack": [10], "damage": [3, 7]}))
    assert (outcome["reason"], outcome["detail"]) == (
        "dice_value_out_of_range",
        {"slot": "damage", "faces": 6, "value": 7},
    )
    hit = applied(t, ram(dice={"attack": [10], "damage": [3, 6], "explosion_damage": [7]}))
    assert (hit["damage"]["total"], hit["unused_dice"]) == (19, ["explosion_damage"])
