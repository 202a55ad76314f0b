"""The pathfinder wire contract (spec pathfinder §2, §3): bodies that fit are appended as sent, bodies that do
not are a 422 naming the field and append nothing, field combinations are left to the rules."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from rules.registry import get_ruleset
from schemas.commands import command_schemas, load_command
from tests.service.helpers import accepted, assert_problem, fold, head_version, outcome, send
from tests.service.pathfinder_bodies import CREATURE, ENGINE, FITTING, STRUCTURE

LOAD = FITTING["load"]
FIRE = FITTING["fire"]
CREW = FITTING["assign_crew"]
RAM = FITTING["ram"]

# body → the top-level field the problem must name
NOT_FITTING: dict[str, tuple[dict[str, Any], str]] = {
    "unknown command type": ({"type": "teleport"}, "type"),
    "an epic command": ({"type": "advance_phase"}, "type"),
    "unknown field": ({**CREATURE, "alignment": "LG"}, "alignment"),
    "unknown nested field": ({**CREATURE, "position": {"x": 0, "y": 0, "z": 1}}, "position"),
    "missing required field": ({k: v for k, v in CREATURE.items() if k != "hp"}, "hp"),
    "square missing y": ({**CREATURE, "position": {"x": 0}}, "position"),
    "float coordinate": ({**CREATURE, "position": {"x": 0.5, "y": 0}}, "position"),
    "string for an integer": ({**CREATURE, "ac": "14"}, "ac"),
    "boolean for an integer": ({**CREATURE, "bab": True}, "bab"),
    "integer for a boolean": ({**ENGINE, "masterwork": 1}, "masterwork"),
    "French size code": ({**CREATURE, "size": "Gig"}, "size"),
    "unknown size": ({**CREATURE, "size": "X"}, "size"),
    "Medium gate": ({**STRUCTURE, "size": "M"}, "size"),
    "unknown material": ({**STRUCTURE, "material": "glass"}, "material"),
    "unknown structure kind": ({**STRUCTURE, "kind": "moat"}, "kind"),
    "unknown tower level": ({**CREATURE, "inside": {"engine_id": "t", "level": "roof"}}, "inside"),
    "unknown skill": ({**CREATURE, "skills": {"climb": {"ranks": 1}}}, "skills"),
    "negative ranks": ({**CREATURE, "skills": {"disable_device": {"ranks": -1}}}, "skills"),
    "unknown save": ({**CREATURE, "saves": {"luck": 1}}, "saves"),
    "unknown feature": ({**CREATURE, "features": ["bardic_music"]}, "features"),
    "unknown proficiency": ({**CREATURE, "proficiencies": ["longsword"]}, "proficiencies"),
    "enhancement above 5": ({**ENGINE, "enhancement": 6}, "enhancement"),
    "unknown ram head": ({**ENGINE, "ram_head": "hammer"}, "ram_head"),
    "armor missing its category": ({**ENGINE, "armor": {"armor_bonus": 6, "metal": True}}, "armor"),
    "unknown armor category": ({**ENGINE, "armor": {**ENGINE["armor"], "category": "tower"}}, "armor"),
    "unknown starting ammunition": ({**ENGINE, "state": {"ammunition": "napalm"}}, "state"),
    "negative successive misses": ({**ENGINE, "state": {"successive": {"seen_misses": -1}}}, "state"),
    "override size on a string": ({**ENGINE, "stat_overrides": {"size": "huge"}}, "stat_overrides"),
    "zero rounds": ({"type": "advance_round", "rounds": 0}, "rounds"),
    "unknown wind": ({"type": "set_wind", "level": "breezy"}, "level"),
    "unknown spell": ({**FITTING["cast_engine_spell"], "spell": "haste"}, "spell"),
    "caster level 0": ({**FITTING["cast_engine_spell"], "caster_level": 0}, "caster_level"),
    "empty crew": ({**CREW, "creature_ids": []}, "creature_ids"),
    "crew member twice": ({**CREW, "creature_ids": ["a", "a"]}, "creature_ids"),
    "no contributors to a load": ({**LOAD, "contributors": []}, "contributors"),
    "three actions": ({**LOAD, "contributors": [{"creature_id": "a", "actions": 3}]}, "contributors"),
    "a contributor twice": (
        {**LOAD, "contributors": [{"creature_id": "a"}, {"creature_id": "a", "actions": 2}]},
        "contributors",
    ),
    "unknown ammunition": ({**LOAD, "ammunition": "napalm"}, "ammunition"),
    "unknown target key": ({**FITTING["aim"], "target": {"stand_id": "x"}}, "target"),
    "ram at a square": ({**RAM, "target": {"square": {"x": 0, "y": 1}}}, "target"),
    "unknown area shape": ({**FIRE, "area": {"shape": "circle"}}, "area"),
    "empty blast-shot targets": ({**FIRE, "target_ids": []}, "target_ids"),
    "empower level 10": ({**FIRE, "empower_spell_level": 10}, "empower_spell_level"),
    "line_of_sight as a string": ({**FIRE, "line_of_sight": "false"}, "line_of_sight"),
    "unknown repair kind": ({**FITTING["repair"], "kind": "destroyed"}, "kind"),
    "repair with an unknown skill": ({**FITTING["repair"], "skill": "climb"}, "skill"),
    "unknown disable mode": ({**FITTING["disable"], "mode": "explode"}, "mode"),
    "unknown corvus action": ({**FITTING["use_corvus"], "action": "raise"}, "action"),
    "unknown dislodge method": ({**FITTING["dislodge_corvus"], "method": "magic"}, "method"),
    "nobody opens the gate": ({**FITTING["operate_gate"], "contributors": []}, "contributors"),
    "crush nobody": ({**FITTING["crush"], "target_ids": []}, "target_ids"),
    "unknown dice slot": ({**FIRE, "dice": {"jam": 3}}, "dice"),
    "an epic dice slot": ({**FIRE, "dice": {"attacker": 3}}, "dice"),
    "dice value 0": ({**FIRE, "dice": {"attack": 0}}, "dice"),
    "dice value a float": ({**FIRE, "dice": {"damage": [3, 2.5]}}, "dice"),
    "conclude with fields": ({"type": "conclude", "winner": "attackers"}, "winner"),
}


def create_pathfinder(client: FlaskClient, options: dict[str, Any] | None = None) -> str:
    created = client.post("/battles", json={"ruleset": "pathfinder", "options": options or {}})
    assert created.status_code == 201, created.get_json()
    battle_id: str = created.get_json()["id"]
    return battle_id


def test_every_command_has_a_fitting_body_here() -> None:
    assert set(FITTING) == set(command_schemas("pathfinder"))


@pytest.mark.parametrize("body", FITTING.values(), ids=FITTING.keys())
def test_a_fitting_body_is_accepted_and_logged_as_sent(client: FlaskClient, body: dict[str, Any]) -> None:
    battle_id = create_pathfinder(client)

    version = accepted(client, battle_id, body)

    entry = client.get(f"/battles/{battle_id}/events/{version}").get_json()
    sent = {k: v for k, v in body.items() if k not in ("type", "dice")}
    assert (entry["type"], entry["data"], entry["dice"]) == (body["type"], sent, body.get("dice", {}))


@pytest.mark.parametrize("body", FITTING.values(), ids=FITTING.keys())
def test_the_rules_can_read_every_fitting_body(body: dict[str, Any]) -> None:
    loaded = load_command("pathfinder", body)
    if loaded.type not in ("conclude", "undo"):
        get_ruleset("pathfinder").parse(loaded.type, loaded.data)


@pytest.mark.parametrize("body, field", NOT_FITTING.values(), ids=NOT_FITTING.keys())
def test_a_body_that_does_not_fit_is_a_422_naming_the_field_and_appends_nothing(
    client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    battle_id = create_pathfinder(client)

    problem = assert_problem(send(client, battle_id, body), 422, "validation")

    assert field in problem["errors"]
    assert head_version(client, battle_id) == 1


def test_defaults_are_documented_not_filled_in() -> None:
    body = {"type": "add_creature", "id": "c", "size": "M", "ac": 10, "hp": 10, "position": {"x": 0, "y": 0}}

    assert load_command("pathfinder", body).data == {k: v for k, v in body.items() if k != "type"}


BALLISTA = {"type": "place_engine", "id": "b", "catalog_id": "ballista_light", "position": {"x": 0, "y": 0}}
# state or combination checks the spec (§2) leaves to the rules: appended, then rejected
LEFT_TO_THE_RULES: dict[str, tuple[dict[str, Any], str]] = {
    "ram fields on a ballista": ({**BALLISTA, "improvised": True}, "invalid_field"),
    "flimsy wall": ({**STRUCTURE, "kind": "wall", "size": None, "flimsy": True}, "invalid_field"),
    "an engine not in the catalog": ({**BALLISTA, "catalog_id": "death_star"}, "unknown_engine"),
    "ids that do not exist": (FITTING["observe"], "unknown_entity"),
}


@pytest.mark.parametrize("body, reason", LEFT_TO_THE_RULES.values(), ids=LEFT_TO_THE_RULES.keys())
def test_what_needs_the_battle_to_judge_is_appended_and_rejected_by_the_rules(
    client: FlaskClient, redis_store: RedisEventStore, body: dict[str, Any], reason: str
) -> None:
    battle_id = create_pathfinder(client)

    version = accepted(client, battle_id, body)
    fold(redis_store, battle_id)

    judged = outcome(client, battle_id, version)
    assert (judged["status"], judged["reason"]) == ("rejected", reason)
