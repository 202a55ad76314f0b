"""The checks of §2 run first for every command (PF-GEN-01, PF-GEN-06): ids, then dice faces; unused dice.
Then the actor checks and the engine checks, in the spec's order, each naming the entity behind it in the
rejection's `detail` (DESIGN §5)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TableFactory
from tests.harness import Table
from tests.rules.pathfinder.given import (
    PROFICIENT,
    ROGUE,
    advance,
    aim,
    aimed_engine,
    applied,
    at,
    ballista,
    creature,
    crew,
    engine,
    fire,
    load,
    rejected,
    setup,
    skill,
    square,
    who,
)

SMITH: dict[str, Any] = {"skills": {"craft_siege_engine": skill(1, 5)}}
MASTER: dict[str, Any] = {
    "feats": ["siege_engineer", "master_siege_engineer"],
    "skills": {"knowledge_engineering": skill(10, 10)},
    **PROFICIENT,
}


def refusal(table: Table, command: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    outcome = table.send(command)
    assert outcome["status"] == "rejected", outcome["result"]
    return outcome["reason"], outcome["detail"]


@pytest.mark.rule("PF-GEN-06")
def test_a_supplied_slot_never_drawn_is_listed_by_name(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    result = applied(table, {**creature("c"), "dice": {"attack": [3], "save": 4}})
    assert result["unused_dice"] == ["attack", "save"]
    assert result["round"] == 1


@pytest.mark.rule("PF-GEN-06")
def test_a_die_above_its_faces_is_rejected_before_anything_else(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    assert rejected(table, {**engine("e", "no_such_engine"), "dice": {"scatter_direction": [9]}}) == (
        "dice_value_out_of_range"
    )


@pytest.mark.rule("PF-GEN-06")
def test_unknown_ids_are_rejected_before_dice_faces(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    command = {"type": "assign_crew", "engine_id": "ghost", "creature_ids": ["x"], "leader_id": "x"}
    assert rejected(table, {**command, "dice": {"check": [21]}}) == "unknown_entity"


@pytest.mark.rule("PF-GEN-01")
def test_ids_are_unique_across_creatures_engines_and_structures(rules_table: TableFactory) -> None:
    table = rules_table("pathfinder")
    applied(table, creature("x"))
    assert rejected(table, engine("x", "ballista_light")) == "duplicate_id"
    wall = {
        "type": "add_structure",
        "id": "x",
        "kind": "wall",
        "material": "iron",
        "position": {"x": 0, "y": 0},
    }
    assert rejected(table, wall) == "duplicate_id"


@pytest.mark.rule("PF-GEN-06")
def test_the_damage_die_is_the_engine_s_and_is_checked_first_even_when_not_drawn(
    rules_table: TableFactory,
) -> None:
    """The light ballista's 3d8: a 9 is refused before `not_loaded`, and on a miss that would not draw it;
    an 8 on that miss is simply unused."""
    t = ballista(rules_table)
    out_of_range = ("dice_value_out_of_range", {"slot": "damage", "faces": 8, "value": 9})
    assert refusal(t, fire("lb", {"attack": [2], "damage": [9, 1, 1]}, target=who("dummy"))) == out_of_range
    missed = applied(t, fire("lb", {"attack": [2], "damage": [8, 1, 1]}, target=who("dummy")))
    assert (missed["hit"], missed["unused_dice"]) == (False, ["damage"])
    unloaded = ballista(rules_table, loaded=False)
    assert refusal(unloaded, fire("lb", {"damage": [1, 9, 1]}, target=who("dummy")))[0] == out_of_range[0]
    assert rejected(unloaded, fire("lb", {"damage": [1, 8, 1]}, target=who("dummy"))) == "not_loaded"


@pytest.mark.rule("PF-GEN-06", "PF-AMMO-09")
def test_an_entangling_bolt_draws_no_damage_so_no_damage_value_is_out_of_its_range(
    rules_table: TableFactory,
) -> None:
    t = ballista(rules_table, ammunition="entangling_bolt")
    shot = applied(t, fire("lb", {"attack": [2], "damage": [9]}, target=who("dummy")))
    assert (shot["hit"], shot["unused_dice"]) == (False, ["damage"])


@pytest.mark.rule("PF-GEN-06")
def test_a_command_that_shoots_nothing_has_no_damage_die_to_exceed(rules_table: TableFactory) -> None:
    t = rules_table("pathfinder")
    setup(
        t,
        creature("c1", **PROFICIENT),
        creature("c2", x=1),
        aimed_engine("lc", "catapult_light"),
        crew("lc", "c1", "c2"),
    )
    aimed = applied(t, {**aim("lc", square(0, 20), ("c2", 1)), "dice": {"damage": [7]}})
    assert (aimed["aim_progress"], aimed["unused_dice"]) == (1, ["damage"])


@pytest.mark.rule("PF-GEN-06", "PF-MISFIRE-03")
def test_the_explosion_die_is_the_engine_s_catalog_die(rules_table: TableFactory) -> None:
    """A cannon's 6d6 explosion: a 7 is refused first, though a hit draws no explosion die."""
    t = rules_table("pathfinder")
    setup(
        t,
        creature("cg", bab=4, proficiencies=["firearms"]),
        creature("c2", x=1),
        creature("ogre", hp=60, y=8),
        aimed_engine("cn", "cannon", who("ogre")),
        crew("cn", "cg", "c2"),
    )
    dice = {"attack": [15], "damage": [1] * 6}
    assert refusal(t, fire("cn", {**dice, "explosion_damage": [6, 7, 1, 1, 1, 1]})) == (
        "dice_value_out_of_range",
        {"slot": "explosion_damage", "faces": 6, "value": 7},
    )
    shot = applied(t, fire("cn", {**dice, "explosion_damage": [6] * 6}))
    assert (shot["hit"], shot["damage"]["total"], shot["unused_dice"]) == (True, 6, ["explosion_damage"])


def crewed_catapult(rules_table: TableFactory, *entities: dict[str, Any], **state: Any) -> Table:
    """A light catapult `lc` crewed by c1 (leader) and c2 (2 of 2), a smith, a rogue, and what is given."""
    started: dict[str, Any] = {"state": state} if state else {}
    t = rules_table("pathfinder")
    setup(
        t,
        creature("c1", **PROFICIENT),
        creature("c2", x=1),
        creature("smith", **SMITH),
        creature("rogue", **ROGUE),
        engine("lc", "catapult_light", **started),
        crew("lc", "c1", "c2"),
        *entities,
    )
    return t


@pytest.mark.rule("PF-TIME-04", "PF-REPAIR-04")
def test_an_engine_being_repaired_is_busy_for_load_aim_and_fire(rules_table: TableFactory) -> None:
    t = crewed_catapult(rules_table, broken=True)
    repair = {"type": "repair", "engine_id": "lc", "by": "smith", "kind": "broken"}
    applied(t, {**repair, "dice": {"check": [15]}})
    busy = ("engine_busy", {"id": "lc"})
    assert refusal(t, load("lc", ("c2", 1))) == busy
    assert refusal(t, aim("lc", square(0, 20), ("c2", 1))) == busy
    assert refusal(t, fire("lc", {"targeting": [10]})) == busy
    applied(t, advance(100))  # the repair's ten minutes end as round 101 begins
    assert applied(t, load("lc", ("c2", 1)))["load_progress"] == 1


@pytest.mark.rule("PF-DISABLE-03", "PF-CREW-03")
def test_each_engine_check_names_the_engine(rules_table: TableFactory) -> None:
    """§2's engine checks in order: destroyed, assembled, busy, disabled, a crew, not insufficient."""
    t = crewed_catapult(
        rules_table,
        engine("gone", "catapult_light", state={"hp": 0}, assembled=False),
        engine("kit", "catapult_light", assembled=False),
        engine("bare", "catapult_light"),
        creature("small", size="S", x=3),
        engine("lb", "ballista_light"),
        crew("lb", "small"),
    )
    assert refusal(t, load("gone", ("c2", 1))) == ("engine_destroyed", {"id": "gone"})
    assert refusal(t, load("kit", ("c2", 1))) == ("engine_not_assembled", {"id": "kit"})
    assert refusal(t, load("bare", ("c2", 1))) == ("no_crew", {"id": "bare"})
    assert refusal(t, load("lb", ("small", 1))) == ("crew_insufficient", {"id": "lb"})
    disable = {"type": "disable", "engine_id": "lc", "by": "rogue", "mode": "inoperable"}
    applied(t, {**disable, "dice": {"disable_rounds": [1, 1], "check": [10]}})
    applied(t, advance(2))
    assert refusal(t, load("lc", ("c2", 1))) == ("engine_disabled", {"id": "lc"})


@pytest.mark.rule("PF-TIME-02", "PF-TIME-04", "PF-GEN-10")
def test_each_actor_check_names_the_creature_and_the_action(rules_table: TableFactory) -> None:
    broken: dict[str, Any] = {"state": {"broken": True}}
    t = crewed_catapult(
        rules_table,
        engine("lb", "ballista_light", **broken),
        engine("lb2", "ballista_light", **broken),
        creature("fallen", hp=0),
    )

    def fix(by: str, engine_id: str = "lb") -> dict[str, Any]:
        return {"type": "repair", "engine_id": engine_id, "by": by, "kind": "broken", "dice": {"check": [15]}}

    assert refusal(t, fix("fallen")) == ("creature_down", {"id": "fallen"})
    applied(t, load("lc", ("c2", 1)))  # a full-round action: c2 has nothing left this round
    assert refusal(t, fix("c2")) == ("action_unavailable", {"id": "c2", "action": "full_round"})
    applied(t, fix("smith"))
    assert refusal(t, fix("smith", "lb2")) == ("creature_busy", {"id": "smith"})


@pytest.mark.rule("PF-TIME-02", "PF-MOVE-01", "PF-TIME-05")
def test_a_crew_that_fired_still_has_its_move_action_to_move_the_engine(rules_table: TableFactory) -> None:
    """Firing is the leader's standard action; moving the engine is every crew member's move action."""
    t = ballista(rules_table)
    applied(t, fire("lb", {"attack": [2]}, target=who("dummy")))
    moved = applied(t, {"type": "move_engine", "engine_id": "lb", "to": at(0, 1)})
    assert moved["distance_ft"] == 5
    assert refusal(t, {"type": "move_engine", "engine_id": "lb", "to": at(0, 2)}) == (
        "action_unavailable",
        {"id": "lead", "action": "move"},
    )


@pytest.mark.rule("PF-TIME-02", "PF-LOAD-02", "PF-FEAT-03")
def test_a_master_siege_engineer_s_crew_spends_as_many_move_actions_as_it_offers(
    rules_table: TableFactory,
) -> None:
    """After moving the engine each member has its standard action left: one move action more, not two."""
    t = rules_table("pathfinder")
    setup(
        t,
        creature("boss", **MASTER),
        creature("c2", x=1),
        engine("lc", "catapult_light"),
        crew("lc", "boss", "c2"),
        {"type": "move_engine", "engine_id": "lc", "to": at(0, 1)},
    )
    spent = ("action_unavailable", {"id": "c2", "action": "move"})
    assert refusal(t, load("lc", ("c2", 2))) == spent
    assert applied(t, load("lc", ("c2", 1)))["load_progress"] == 1
    assert refusal(t, load("lc", ("boss", 1), ("c2", 1))) == spent
    applied(t, advance())
    assert applied(t, load("lc", ("c2", 2)))["load_progress"] == 3
